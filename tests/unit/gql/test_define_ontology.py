"""The define mutations read the document off the event loop: a large document's parsing
must not hold every other request of the process."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from gql.types import ontology as ontology_types
from graph.memory.ontology import OntologyError
from tests.unit.ontology.test_hostile_documents import alias_bomb


async def test_the_document_is_parsed_in_a_worker_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed_in: list[threading.Thread] = []
    real = ontology_types.parse_ontology_text

    def recording(text: str, **kwargs: Any) -> Any:
        parsed_in.append(threading.current_thread())
        return real(text, **kwargs)

    monkeypatch.setattr(ontology_types, "parse_ontology_text", recording)
    with pytest.raises(OntologyError, match="alias"):
        # Refused before the store is read: no executor is needed.
        await ontology_types.define(None, "agent", "a", alias_bomb(200, 400), dry_run=True)
    assert parsed_in and parsed_in[0] is not threading.current_thread()
