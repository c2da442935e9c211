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
logs=$(mktemp -d)
# Independent steps overlap: the tests' server starts while lint and the unit tier run, and the
# 2026 line's run (its own server and agents) goes on beside the rest; its output comes last.
started=0 start_pid="" line2026_pid=""
if [ -z "${NEO4J_URI:-}" ] && ! hippograph neo4j status >/dev/null 2>&1; then
  hippograph neo4j start >"$logs/neo4j-start" 2>&1 &
  start_pid=$!
  started=1
fi
if [ -z "${NEO4J_URI:-}" ]; then
  setsid scripts/test-line-2026.sh >"$logs/line-2026" 2>&1 </dev/null &
  line2026_pid=$!
fi
cleanup() {
  if [ -n "$line2026_pid" ] && kill -0 "$line2026_pid" 2>/dev/null; then
    kill -- -"$line2026_pid" 2>/dev/null
    (export HIPPOGRAPH_NEO4J_BOLT_PORT=$((HIPPOGRAPH_NEO4J_BOLT_PORT + 1000)) HIPPOGRAPH_NEO4J_LINE=2026
     hippograph neo4j stop >/dev/null)
  fi
  [ -n "$start_pid" ] && wait "$start_pid" 2>/dev/null
  [ "$started" = 1 ] && hippograph neo4j stop
  rm -rf "$fingerprint" "$logs"
}
trap cleanup EXIT

rc=0
echo "==> ruff";   ruff check . || rc=1
echo "==> ruff format"; ruff format --check . || rc=1
echo "==> mypy";   mypy || rc=1
echo "==> GraphQL schema drift"; python -m gql.export --check || rc=1
# The unit tier needs no database: it runs while the tests' server may still be starting.
echo "==> pytest tests/unit"; pytest -q -p no:cacheprovider tests/unit "$@"
urc=$?
if [ -n "$start_pid" ]; then
  wait "$start_pid"
  src=$?
  start_pid=""
  cat "$logs/neo4j-start"
  [ "$src" = 0 ] || exit 1
fi
echo "==> pytest tests/integration tests/e2e"; pytest -q -p no:cacheprovider tests/integration tests/e2e "$@"
prc=$?
# 5: no test collected; a selection (-k ...) may leave one of the two runs empty, not both.
[ "$urc" = 5 ] && [ "$prc" = 5 ] && { echo "pytest collected no tests"; rc=1; }
[ "$urc" != 0 ] && [ "$urc" != 5 ] && rc=1
[ "$prc" != 0 ] && [ "$prc" != 5 ] && rc=1

if [ -n "$line2026_pid" ]; then
  echo "==> pytest on the Neo4j 2026 line (vector search forms, multi-tenant reads, speed guard, write plans, 32-bit vectors, its Java, the page-cache warm-up)"
  wait "$line2026_pid" || rc=1
  line2026_pid=""
  cat "$logs/line-2026"
fi

echo "==> \`make run\`'s database after the tests"
"${run_env[@]}" python -m tests.isolation check "$fingerprint" || rc=1
exit $rc
