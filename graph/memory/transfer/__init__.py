"""Moving an agent's memory in and out: the JSON Lines export format, export, import, and
imports from other memory systems (Mem0 exports, Graphiti graphs)."""

from graph.memory.transfer.exporter import export_agent, export_counts, export_lines
from graph.memory.transfer.importer import ImportResult, import_agent
from graph.memory.transfer.records import ExportHeader, map_id

__all__ = [
    "ExportHeader",
    "ImportResult",
    "export_agent",
    "export_counts",
    "export_lines",
    "import_agent",
    "map_id",
]
