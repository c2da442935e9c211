#!/usr/bin/env bash
# The one test command (README, CI): installs everything, starts the local Neo4j if it is not
# running (and stops it again at the end), then lint, types, schema drift and all test tiers.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh --test || exit 1
export PATH="$PWD/.venv/bin:$PATH"

started=0
if [ -z "${NEO4J_URI:-}" ] && ! hippograph neo4j status >/dev/null 2>&1; then
  hippograph neo4j start || exit 1
  started=1
fi
cleanup() { [ "$started" = 1 ] && hippograph neo4j stop; }
trap cleanup EXIT

rc=0
echo "==> ruff";   ruff check . || rc=1
echo "==> ruff format"; ruff format --check . || rc=1
echo "==> mypy";   mypy || rc=1
echo "==> GraphQL schema drift"; python -m gql.export --check || rc=1
echo "==> pytest"; pytest -q -p no:cacheprovider tests/unit tests/integration tests/e2e "$@"
prc=$?
[ "$prc" = 5 ] && { echo "pytest collected no tests"; prc=1; }
[ "$prc" != 0 ] && rc=1

# The read tests that depend on the vector search form, against the other Neo4j line (2026:
# in-index filtered search) started by our runtime with its own home and ports. Skipped when
# the tests run against a server of the user's (NEO4J_URI).
if [ -z "${NEO4J_URI:-}" ]; then
  echo "==> pytest on the Neo4j 2026 line (vector search forms, multi-tenant reads, speed guard, write plans, 32-bit vectors, its Java, the page-cache warm-up)"
  bolt=${HIPPOGRAPH_NEO4J_BOLT_PORT:-7687} http=${HIPPOGRAPH_NEO4J_HTTP_PORT:-7474}
  (
    export HIPPOGRAPH_NEO4J_LINE=2026 HIPPOGRAPH_NEO4J_BOLT_PORT=$((bolt + 1000)) \
      HIPPOGRAPH_NEO4J_HTTP_PORT=$((http + 1000))
    hippograph neo4j start || exit 1
    pytest -q -p no:cacheprovider tests/integration/read/test_vector_search_form.py \
      tests/integration/read/test_multi_tenant.py tests/integration/read/test_retrieve_behaviour.py \
      tests/integration/write/test_resolution_bounds.py tests/integration/read/test_bridge.py \
      tests/integration/read/test_plan_budgets.py tests/integration/write/test_remember_statements.py \
      tests/integration/write/test_stored_vectors.py tests/integration/test_server_java.py \
      tests/integration/test_page_cache_warm.py
    prc=$?
    hippograph neo4j stop
    exit $prc
  ) || rc=1
fi
exit $rc
