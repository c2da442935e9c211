#!/usr/bin/env bash
# The one run command (README): installs everything, starts the local Neo4j, loads the demo
# agent and serves GraphQL on http://127.0.0.1:8000/graphql (Ctrl-C stops the API; the Neo4j
# server keeps running until `.venv/bin/hippograph neo4j stop`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
exec .venv/bin/hippograph up "$@"
