"""Curation: explicit edits of a memory outside the write pipeline — ``edits`` (forget a fact,
merge two entities; each one write transaction with an audit record, nothing physically
deleted) and ``review`` (accept or reject a proposed merge)."""
