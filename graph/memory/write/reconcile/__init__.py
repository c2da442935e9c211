"""Reconciliation stage of the write pipeline: each extracted fact against the facts already
known — ADD, UPDATE, NOOP or DELETE. ``decisions`` decides, purely (thresholds for the clear
cases, the LLM or a rule for the ambiguous band); ``stage`` gathers the decisions of a
message's facts."""
