"""Maintenance jobs: the graph's upkeep, run by the job worker (``graph.memory.jobs``).

``consolidate`` (clusters of related facts → observations; pure clustering in ``clusters``),
``profiles`` (an entity's facts → its profile text), ``importance`` (re-scoring with use, and
decay), ``duplicates`` (duplicate-entity candidates for review), ``causal`` (reading the causal
links the write pipeline creates). The scheduler (``graph.memory.jobs.scheduler``) enqueues them
per agent; the composition root (``server.composition.default_handlers``) maps each job kind
to its handler here; ``kinds`` names the kinds and builds the job a request queues.
"""
