#!/usr/bin/env bash
# The read tests that depend on the vector search form, against the other Neo4j line (2026:
# in-index filtered search), started by our runtime in the tests' folder (<dir>/line-2026) on
# the tests' ports + 1000 (scripts/test-env.sh) and stopped again at the end. scripts/test.sh
# runs it beside the main suite (another server, agents of its own). Arguments go to pytest.
# Nothing to do with NEO4J_URI set (the tests then use the user's server).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.venv/bin:$PATH"
[ -z "${NEO4J_URI:-}" ] || { echo "NEO4J_URI is set: no run on the 2026 line"; exit 0; }
source scripts/test-env.sh
export HIPPOGRAPH_NEO4J_LINE=2026 HIPPOGRAPH_NEO4J_BOLT_PORT=$((HIPPOGRAPH_NEO4J_BOLT_PORT + 1000)) \
  HIPPOGRAPH_NEO4J_HTTP_PORT=$((HIPPOGRAPH_NEO4J_HTTP_PORT + 1000))
trap 'hippograph neo4j stop >/dev/null' EXIT
# A server for a few minutes: C2 compiles only what stays hot thirty times as long
# (HIPPOGRAPH_TEST_JIT, scripts/test-env.sh; at ten times, about 60 % less of its compiling here).
JAVA_TOOL_OPTIONS="$HIPPOGRAPH_TEST_JIT ${JAVA_TOOL_OPTIONS:-}" hippograph neo4j start || exit 1
# Tests of those files that never reach the server (answered or refused before any query)
# have nothing of the line in them: the main tier runs them.
skip=tests/integration/read/test_retrieve_behaviour.py
pytest -q -p no:cacheprovider tests/integration/read/test_vector_search_form.py \
  tests/integration/read/test_multi_tenant.py tests/integration/read/test_retrieve_behaviour.py \
  tests/integration/write/test_resolution_bounds.py tests/integration/read/test_activation.py \
  tests/integration/read/test_plan_budgets.py tests/integration/write/test_remember_statements.py \
  tests/integration/write/test_stored_vectors.py tests/integration/test_server_java.py \
  tests/integration/test_page_cache_warm.py tests/integration/test_isolation.py \
  --deselect "$skip::test_greetings_skip_with_zero_database_queries" \
  --deselect "$skip::test_bad_input_is_typed" "$@"
