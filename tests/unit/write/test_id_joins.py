"""Ids and hashes built from several user-controlled parts never collide, and the
ones stored before (parts without ``|`` or ``\\``) keep their values."""

from __future__ import annotations

import hashlib

from graph.memory.jobs.policy import dedup_key
from graph.memory.maintenance.clusters import observation_id
from graph.memory.maintenance.duplicates import candidate_id
from graph.memory.text import content_hash, entity_key, join_parts


def test_join_parts_is_injective_and_keeps_plain_joins() -> None:
    assert join_parts("a|b", "c") != join_parts("a", "b|c")
    assert join_parts("a\\", "|b") != join_parts("a\\|", "b")
    assert join_parts("a", "b", "c") == "a|b|c"


def test_content_hash_parts_do_not_run_together() -> None:
    assert content_hash("a|b", "c", "d") != content_hash("a", "b|c", "d")
    old = hashlib.sha256(b"agent|person:ana|ana likes tea").hexdigest()[:32]
    assert content_hash("agent", "person:ana", "ana likes tea") == old  # stored hashes hold


def test_job_dedup_keys_of_two_agents_differ() -> None:
    assert dedup_key("extract", "t|x", "e1") != dedup_key("extract", "t", "x|e1")
    assert dedup_key("profile", "a", None) != dedup_key("profile", "a", "*")
    assert dedup_key("profile", "a", None) == dedup_key("profile", "a", "") == "profile|a|*"
    assert dedup_key("extract", "a", "e1") == "extract|a|e1"  # pending jobs keep their keys


def test_observation_and_candidate_ids_do_not_collide() -> None:
    assert observation_id("a", "k", ["x|y", "z"]) != observation_id("a", "k", ["x", "y|z"])
    assert candidate_id("a", "p:x|p:y", "p:z") != candidate_id("a", "p:x", "p:y|p:z")


def test_entity_keys_of_different_names_differ() -> None:
    speaker = "Maria " + "da Silva " * 12  # a slug over 80 characters
    # a plain cut at 80 made the speaker's mother the speaker herself (and her father)
    assert entity_key(f"{speaker}'s mom", "person") != entity_key(speaker, "person")
    assert entity_key(f"{speaker}'s mom", "person") != entity_key(f"{speaker}'s dad", "person")
    assert len(entity_key(f"{speaker}'s mom", "person").split(":", 1)[1]) == 80
    # a name typed to look like another name's hash fallback gets its own key
    cjk = entity_key("東京", "city")
    assert entity_key(cjk.split(":", 1)[1], "city") != cjk
    assert entity_key("Clara Rezende", "person") == "person:clara_rezende"  # unchanged
