"""Entity linking of the LoCoMo benchmark import (offline extractor + entity resolution)."""

from __future__ import annotations

from graph.memory.write import StructuredFact
from tests.bench.locomo_parts import link_entities


def _fact(text: str, speaker: str) -> StructuredFact:
    return StructuredFact(text, speaker, speaker=speaker)


def test_facts_link_to_the_entities_they_mention_resolved_across_the_conversation() -> None:
    facts = [
        _fact("Caroline attended an LGBTQ support group in Boston.", "Caroline"),
        _fact("Melanie is proud of Caroline for supporting the LGBTQ+ community.", "Melanie"),
        _fact("Melanie lives in Boston with her kids.", "Melanie"),
        _fact("Melanie is painting a sunset.", "Melanie"),
    ]
    links = link_entities(facts, ["Caroline", "Melanie"])
    assert set(facts[0].entities) == {"Boston", "LGBTQ"}
    # the other speaker resolves to her person entity; "LGBTQ+" to the entity seen before
    assert set(facts[1].entities) == {"Caroline", "LGBTQ"}
    assert facts[2].entities == ["Boston"] and facts[3].entities == []
    assert links.linked_facts == 3
    by_key = {e.key: e for e in links.entities}
    assert set(by_key) == {"place:boston", "thing:lgbtq"}  # speakers are declared elsewhere
    assert by_key["thing:lgbtq"].aliases == ["LGBTQ+"]
    # the extractor's relations (its verb table's "lives in", the open relations read off the
    # parse) become relationships between the entities; "her kids" is no entity, so no end
    assert [(r.source, r.type, r.target) for r in links.relations] == [
        ("Caroline", "attended_group_in", "Boston"),
        ("Melanie", "proud_of", "Caroline"),
        ("Melanie", "lives_in", "Boston"),
    ]
