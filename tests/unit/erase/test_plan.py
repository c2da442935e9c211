"""Pure decisions of erase: targets, name matching, what audit records keep."""

from __future__ import annotations

import hashlib
import re

import pytest

from graph.errors import BadInput
from graph.memory.erase.plan import (
    EraseReport,
    batches,
    carries,
    context_probes,
    erase_key,
    erase_target,
    mention_patterns,
    name_matcher,
    payload_fragment,
    scrub_context,
    scrub_rows,
    text_hash,
)


def test_target_needs_exactly_one_scope() -> None:
    assert erase_target("a", fact_id="f").scope == "fact"
    assert erase_target("a", entity_key=" person:x ").entity_key == "person:x"
    assert erase_target("a", everything=True).scope == "agent"
    for bad in ({}, {"fact_id": "f", "everything": True}, {"fact_id": " ", "entity_key": ""}):
        with pytest.raises(BadInput):
            erase_target("a", **bad)  # type: ignore[arg-type]
    with pytest.raises(BadInput):
        erase_target(" ", fact_id="f")


def _java_like(pattern: str) -> re.Pattern[str]:
    """The Neo4j pattern in Python's dialect (\\Q..\\E quoting and the U flag differ)."""
    body = pattern.removeprefix("(?isU)")
    quoted = re.search(r"\\Q(.*)\\E", body)
    assert quoted
    body = body.replace(quoted.group(0), re.escape(quoted.group(1)))
    return re.compile(body, re.I | re.S)


def test_names_match_whole_words_case_insensitively() -> None:
    patterns = mention_patterns(["Ana", "Al", None, "ana", "J.R. (Jr)"])
    assert len(patterns) == 2  # "Al" is too short, "ana" repeats "Ana"
    ana = _java_like(patterns[0])
    assert ana.fullmatch("Yesterday ANA called.\nBye")
    assert not ana.fullmatch("I ate a banana")
    tricky = _java_like(patterns[1])
    assert tricky.fullmatch("met j.r. (jr) today") and not tricky.fullmatch("J.R. Jr")
    matcher = name_matcher(["Ana"])
    assert matcher and matcher.search("thread-ana-2") and not matcher.search("banana")
    assert name_matcher(["Al"]) is None


def test_quote_end_inside_a_name_cannot_break_out() -> None:
    (pattern,) = mention_patterns([r"x\E.*"])
    assert pattern.count(r"\E") == 1


def test_audits_keep_ids_and_a_hash_not_text() -> None:
    rows = [
        {"id": "1", "text": "Ana lives in Porto", "reason": None, "target_id": "f-9"},
        {"id": "2", "text": None, "reason": None, "target_id": "person:ana"},
        {"id": "3", "text": None, "reason": "merged Ana", "target_id": "f-1"},
    ]
    key = erase_key()
    out = scrub_rows(rows, ["f-9"], name_matcher(["Ana"]), key=key)
    assert out[0] == {
        "id": "1",
        "text_hash": text_hash("Ana lives in Porto", key=key),
        "target_id": text_hash("f-9", key=key),
    }
    assert out[1]["text_hash"] is None and out[1]["target_id"] == text_hash("person:ana", key=key)
    assert out[2]["target_id"] == "f-1" and out[2]["text_hash"].startswith("hmac:")
    assert all("Ana" not in str(r) for r in out)


def test_an_audit_hash_cannot_confirm_a_guessed_subject() -> None:
    """A plain sha256 of ``person:ana`` would let anyone holding a key for the agent check a
    guess against a scrubbed record; the hash is keyed by a key each erase draws and drops."""
    rows = [{"id": "1", "text": None, "reason": None, "target_id": "person:ana"}]
    first = scrub_rows(rows, [], name_matcher(["ana"]), key=erase_key())[0]["target_id"]
    second = scrub_rows(rows, [], name_matcher(["ana"]), key=erase_key())[0]["target_id"]
    guess = hashlib.sha256(b"person:ana").hexdigest()
    assert first != second
    assert guess[:32] not in first and guess[:32] not in second


def test_report_counts_and_batches() -> None:
    assert EraseReport(scope="fact", facts=2, jobs=0).counts() == {"facts": 2}
    assert list(batches(["a", "b", "c"], 2)) == [["a", "b"], ["c"]]
    assert list(batches([], 2)) == []


def test_an_erased_message_is_recognised_among_earlier_messages() -> None:
    long = "Ana moved to Porto last spring and " + "x" * 200
    recent = [
        "Rafael: Ana moved to Porto.",  # with a speaker prefix
        "Ana moved to Porto.",
        "Ana moved to Porto.s and more",  # not a word boundary: another message
        long[:100],  # cut to the context budget
        "how is the cat?",
        {"not": "a string"},
    ]
    kept = scrub_context(recent, ["  Ana moved to Porto.  ", long])
    assert kept == ["Ana moved to Porto.s and more", "how is the cat?", {"not": "a string"}]
    assert scrub_context(recent, []) == recent
    assert carries("so: ok", "ok", cut=False) and not carries("okay", "ok", cut=False)
    assert context_probes([" hi ", None, "", "hi"]) == ["hi"]
    assert payload_fragment('Zoë said "hi"\n') == 'Zo\\u00eb said \\"hi\\"\\n'
