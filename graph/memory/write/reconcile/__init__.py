"""Reconciliation stage of the write pipeline: each extracted fact against the facts already
known — ADD, UPDATE, NOOP or DELETE. ``assemble`` turns the resolved extraction into
``items``; ``candidates`` reads each fact's stored neighbours; ``decisions`` decides, purely
(thresholds for the clear cases, the LLM — ``llm`` — or a rule for the ambiguous band);
``stage`` gathers the decisions of a message's facts and the single-valued supersessions."""
