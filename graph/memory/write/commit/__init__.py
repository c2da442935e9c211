"""Commit stage of the write pipeline: ``plan`` turns the decisions into rows (mirror facts,
modes, relations, causes, entities), ``store`` holds the Neo4j writes (the raw-first event log
and the one write transaction, with its locks and re-checks), ``stage`` runs reconcile, plan
and write, and keeps the idempotency receipt."""
