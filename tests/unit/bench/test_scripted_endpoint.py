"""The scripted endpoint's schema-driven answers (used by the LLM cost benchmark)."""

from __future__ import annotations

from tests.bench.scripted_endpoint import minimal_instance

# The shape pydantic's model_json_schema() gives Graphiti's response models.
NODE_RESOLUTIONS = {
    "$defs": {
        "NodeDuplicate": {
            "properties": {
                "id": {"type": "integer"},
                "name": {"type": "string"},
                "duplicate_candidate_id": {"type": "integer"},
                "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
            },
            "required": ["id", "name", "duplicate_candidate_id"],
            "type": "object",
        }
    },
    "properties": {
        "entity_resolutions": {"items": {"$ref": "#/$defs/NodeDuplicate"}, "type": "array"},
        "kind": {"enum": ["a", "b"]},
        "inner": {"$ref": "#/$defs/NodeDuplicate"},
    },
    "required": ["entity_resolutions", "kind", "inner"],
    "title": "NodeResolutions",
    "type": "object",
}


def test_minimal_instance_follows_refs_enums_and_required() -> None:
    assert minimal_instance(NODE_RESOLUTIONS) == {
        "entity_resolutions": [],
        "kind": "a",
        "inner": {"id": 0, "name": "", "duplicate_candidate_id": 0},
    }
    assert minimal_instance({"anyOf": [{"type": "string"}, {"type": "null"}]}) is None
    assert minimal_instance({"type": ["number", "null"]}) is None
    assert minimal_instance({"type": "boolean"}) is False
