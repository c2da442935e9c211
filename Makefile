# `make run` sets everything up and serves the API with demo data; `make test` runs every check.
.PHONY: run test check bench schema stop
run:
	scripts/run.sh
test:
	scripts/test.sh
check: test
bench:
	.venv/bin/python -m tests.bench
schema:
	.venv/bin/python -m gql.export
stop:
	.venv/bin/hippograph neo4j stop
