"""An agent's memory changes as a live stream: the applied decisions of its audit trail read
from Neo4j (:mod:`.rows`), and the process's pollers fanning them out to subscribers
(:mod:`.feed`)."""

from graph.memory.changes.feed import (
    ChangeFeed,
    ChangeStream,
    SubscriberLagging,
    TooManySubscriptions,
)
from graph.memory.changes.rows import (
    AgentReleased,
    Change,
    ChangeKind,
    Position,
    decode_cursor,
    encode_cursor,
    read_changes,
)

__all__ = [
    "AgentReleased",
    "Change",
    "ChangeFeed",
    "ChangeKind",
    "ChangeStream",
    "Position",
    "SubscriberLagging",
    "TooManySubscriptions",
    "decode_cursor",
    "encode_cursor",
    "read_changes",
]
