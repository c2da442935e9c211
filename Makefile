# `make run` sets everything up and serves the API with demo data; `make test` runs every check
# (it installs what is missing and starts the local Neo4j); `make lint` and `make unit` are the
# fast tiers for an installed checkout (no database needed).
.PHONY: run test check lint unit bench schema stop
run:
	scripts/run.sh
test:
	scripts/test.sh
check: test
lint:
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .
	.venv/bin/mypy
	.venv/bin/python -m gql.export --check
unit:
	.venv/bin/pytest -q -p no:cacheprovider tests/unit
bench:
	.venv/bin/python -m tests.bench
schema:
	.venv/bin/python -m gql.export
stop:
	.venv/bin/hippograph neo4j stop
