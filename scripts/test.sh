#!/usr/bin/env bash
# The one test command (README, CI): installs everything, then lint, types, schema drift and all
# test tiers against the tests' own local Neo4j (scripts/test-env.sh: its own folder and ports,
# started here when it is not running and stopped again at the end), never the database
# `make run` serves: that one is compared before and after (tests/isolation.py). With NEO4J_URI
# set, the tests use that server instead.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh --test || exit 1
export PATH="$PWD/.venv/bin:$PATH"

# `make run`'s database, before anything runs (with `make run`'s settings).
fingerprint=$(mktemp)
python -m tests.isolation snapshot "$fingerprint" || exit 1
run_env=(env -u HIPPOGRAPH_NEO4J_DIR -u HIPPOGRAPH_NEO4J_BOLT_PORT -u HIPPOGRAPH_NEO4J_HTTP_PORT)
for var in HIPPOGRAPH_NEO4J_DIR HIPPOGRAPH_NEO4J_BOLT_PORT HIPPOGRAPH_NEO4J_HTTP_PORT; do
  [ -n "${!var:-}" ] && run_env+=("$var=${!var}")
done

source scripts/test-env.sh
started=0
if [ -z "${NEO4J_URI:-}" ] && ! hippograph neo4j status >/dev/null 2>&1; then
  hippograph neo4j start || exit 1
  started=1
fi
cleanup() {
  [ "$started" = 1 ] && hippograph neo4j stop
  rm -f "$fingerprint"
}
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
# in-index filtered search) started by our runtime in the tests' folder (<dir>/line-2026) on
# the tests' ports + 1000. Skipped when the tests run against a server of the user's (NEO4J_URI).
if [ -z "${NEO4J_URI:-}" ]; then
  echo "==> pytest on the Neo4j 2026 line (vector search forms, multi-tenant reads, speed guard, write plans, 32-bit vectors, its Java, the page-cache warm-up)"
  (
    export HIPPOGRAPH_NEO4J_LINE=2026 HIPPOGRAPH_NEO4J_BOLT_PORT=$((HIPPOGRAPH_NEO4J_BOLT_PORT + 1000)) \
      HIPPOGRAPH_NEO4J_HTTP_PORT=$((HIPPOGRAPH_NEO4J_HTTP_PORT + 1000))
    hippograph neo4j start || exit 1
    pytest -q -p no:cacheprovider tests/integration/read/test_vector_search_form.py \
      tests/integration/read/test_multi_tenant.py tests/integration/read/test_retrieve_behaviour.py \
      tests/integration/write/test_resolution_bounds.py tests/integration/read/test_bridge.py \
      tests/integration/read/test_plan_budgets.py tests/integration/write/test_remember_statements.py \
      tests/integration/write/test_stored_vectors.py tests/integration/test_server_java.py \
      tests/integration/test_page_cache_warm.py tests/integration/test_isolation.py
    prc=$?
    hippograph neo4j stop
    exit $prc
  ) || rc=1
fi

echo "==> \`make run\`'s database after the tests"
"${run_env[@]}" python -m tests.isolation check "$fingerprint" || rc=1
exit $rc
