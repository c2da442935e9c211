#!/usr/bin/env bash
# The one run command (README): installs everything, starts the local Neo4j, loads the demo
# agent and serves GraphQL on http://127.0.0.1:8000/graphql (Ctrl-C stops the API; the Neo4j
# server keeps running until `.venv/bin/hippograph neo4j stop`).
# API processes: min(cores, 4) (server/cli/serve.py default_workers); HIPPOGRAPH_API_WORKERS=N
# overrides it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
workers="${HIPPOGRAPH_API_WORKERS:-$(.venv/bin/python -c 'from server.cli.serve import default_workers; print(default_workers())')}"
exec .venv/bin/hippograph up --workers "$workers" "$@"
