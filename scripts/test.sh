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
# The tests that run Neo4j servers of their own (fresh homes, a server they kill or stop; none
# of them uses the tests' server) form a second tier: it runs beside the main tier, after the
# 2026 line's run (its own server and agents); their output comes last. The tests' server
# starts while lint and the unit tier run.
own_servers=(tests/e2e/test_drills.py tests/e2e/test_outage.py tests/e2e/test_first_minutes.py
  tests/integration/test_local_runtime.py)
started=0 start_pid="" side_pid=""
if [ -z "${NEO4J_URI:-}" ] && ! hippograph neo4j status >/dev/null 2>&1; then
  # C2 for what stays hot ten times as long (HIPPOGRAPH_TEST_JIT, scripts/test-env.sh).
  JAVA_TOOL_OPTIONS="$HIPPOGRAPH_TEST_JIT ${JAVA_TOOL_OPTIONS:-}" \
    hippograph neo4j start >"$logs/neo4j-start" 2>&1 &
  start_pid=$!
  started=1
fi
# Job control: the side tier gets a process group of its own (stopped as one on an interrupt).
set -m
(
  if [ -z "${NEO4J_URI:-}" ]; then
    scripts/test-line-2026.sh >"$logs/line-2026" 2>&1
    echo $? >"$logs/line-2026.rc"
  fi
  # Their Neo4j servers (and Maven) live for a minute or two: compiled by C1 alone, a start
  # costs about half the CPU. (The 2026 line keeps C2: Lucene uses the Vector API only with it.)
  JAVA_TOOL_OPTIONS="-XX:TieredStopAtLevel=1 ${JAVA_TOOL_OPTIONS:-}" \
    pytest -q -p no:cacheprovider "${own_servers[@]}" "$@" >"$logs/own-servers" 2>&1
  echo $? >"$logs/own-servers.rc"
) </dev/null &
side_pid=$!
set +m
cleanup() {
  if [ -n "$side_pid" ] && kill -0 "$side_pid" 2>/dev/null; then
    kill -INT -- -"$side_pid" 2>/dev/null  # pytest runs its teardowns (servers of its own)
    wait "$side_pid" 2>/dev/null
    (export HIPPOGRAPH_NEO4J_BOLT_PORT=$((HIPPOGRAPH_NEO4J_BOLT_PORT + 1000)) HIPPOGRAPH_NEO4J_LINE=2026
     hippograph neo4j stop >/dev/null)
    python -c 'from tests.bench.drills import own_neo4j; own_neo4j().stop()' 2>/dev/null
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
ignore=()
for path in "${own_servers[@]}"; do ignore+=(--ignore="$path"); done
echo "==> pytest tests/integration tests/e2e (but the tests with servers of their own)"
pytest -q -p no:cacheprovider tests/integration tests/e2e "${ignore[@]}" "$@"
prc=$?
wait "$side_pid"
side_pid=""
if [ -f "$logs/line-2026.rc" ]; then
  echo "==> pytest on the Neo4j 2026 line (vector search forms, multi-tenant reads, speed guard, write plans, 32-bit vectors, its Java, the page-cache warm-up)"
  cat "$logs/line-2026"
  [ "$(cat "$logs/line-2026.rc")" = 0 ] || rc=1
fi
echo "==> pytest with servers of their own (drills, outage, first minutes, local runtime)"
cat "$logs/own-servers"
orc=$(cat "$logs/own-servers.rc" 2>/dev/null || echo 1)
# 5: no test collected; a selection (-k ...) may leave some of the runs empty, not all.
[ "$urc" = 5 ] && [ "$prc" = 5 ] && [ "$orc" = 5 ] && { echo "pytest collected no tests"; rc=1; }
for code in "$urc" "$prc" "$orc"; do
  [ "$code" != 0 ] && [ "$code" != 5 ] && rc=1
done

echo "==> \`make run\`'s database after the tests"
"${run_env[@]}" python -m tests.isolation check "$fingerprint" || rc=1
exit $rc
