"""The offline extractor: facts, entities and relations from a message without any LLM.

``extractor`` (spaCy NER + dependency parse, the entry points), ``clauses`` (one fact per
salient clause), ``answers`` (a turn that answers the other speaker's question), ``portuguese``
(rule-based Portuguese sentences). Deterministic and always available; the write pipeline uses it
when no LLM is configured.
"""

from graph.memory.write.extract.offline.extractor import extract_offline, extract_with, load_nlp

__all__ = ["extract_offline", "extract_with", "load_nlp"]
