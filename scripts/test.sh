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
# Every Python process of the run (pytest's tiers, API, worker and CLI subprocesses) imports
# the same modules: compiled once into __pycache__ (ignored by git), not once per process.
unset PYTHONDONTWRITEBYTECODE

# `make run`'s database, before anything runs (with `make run`'s settings).
fingerprint=$(mktemp)
python -m tests.isolation snapshot "$fingerprint" || exit 1
run_env=(env -u HIPPOGRAPH_NEO4J_DIR -u HIPPOGRAPH_NEO4J_BOLT_PORT -u HIPPOGRAPH_NEO4J_HTTP_PORT)
for var in HIPPOGRAPH_NEO4J_DIR HIPPOGRAPH_NEO4J_BOLT_PORT HIPPOGRAPH_NEO4J_HTTP_PORT; do
  [ -n "${!var:-}" ] && run_env+=("$var=${!var}")
done

source scripts/test-env.sh
logs=$(mktemp -d)
# Two streams share the two cores. The main one: lint, then the integration and e2e tests on the
# tests' server, which starts meanwhile. Beside it, in this order, each printed at the end: the
# unit tier (no database); the write tests on the tests' server (agents of their own, their
# job workers too: moved here from the main stream, the longer one); the 2026 line's run (its
# own server and agents); the end-to-end tests that run a Neo4j server of their own (one
# throw-away server they share, kill and stop). The main stream ends with the speed guard on
# the tests' server (agents of its own; it counts each statement's work, which tests running
# beside it do not change; its load must not run beside the main tier's store-wide checks).
# The local runtime's lifecycle tests (a server of their own) end whichever stream gets there
# first (run_tail): which one is the longer moves with the machine's speed from run to run.
# The first-minutes walk before the outage test: it then finds the server the drills restarted
# with its plans made and its code compiled, not the cold one the outage test starts again.
own_servers=(tests/e2e/test_drills.py tests/e2e/test_first_minutes.py tests/e2e/test_outage.py)
local_runtime=tests/integration/test_local_runtime.py
# Their Neo4j servers (and Maven) live for a minute or two: compiled by C1 alone, a start
# costs about half the CPU. (The 2026 line keeps C2: Lucene uses the Vector API only with it.)
short_jvm="-XX:TieredStopAtLevel=1 ${JAVA_TOOL_OPTIONS:-}"
write_tier=tests/integration/write
# ...but for the one that asks the shared fact vector index (approximate) for an exact nearest
# fact: with the main tier writing beside it, the index once missed it. It stays in the main tier.
write_in_main=tests/integration/write/test_resolution_bounds.py
speed_guard=tests/integration/read/test_plan_budgets.py
started=0 start_pid="" side_pid=""
# claim NAME: true for the first stream that asks (an atomic mkdir).
claim() { mkdir "$logs/claim-$1" 2>/dev/null; }
# run_tail PYTEST_ARGS...: the runs both streams end with that no stream has claimed yet.
run_tail() {
  if claim local-runtime; then
    JAVA_TOOL_OPTIONS="$short_jvm" pytest -q -p no:cacheprovider "$local_runtime" "$@" \
      >"$logs/local-runtime" 2>&1
    echo $? >"$logs/local-runtime.rc"
  fi
}
if [ -z "${NEO4J_URI:-}" ] && ! hippograph neo4j status >/dev/null 2>&1; then
  # C2 for what stays hot thirty times as long (HIPPOGRAPH_TEST_JIT, scripts/test-env.sh).
  (JAVA_TOOL_OPTIONS="$HIPPOGRAPH_TEST_JIT ${JAVA_TOOL_OPTIONS:-}" \
    hippograph neo4j start >"$logs/neo4j-start" 2>&1
   code=$?
   echo $code >"$logs/neo4j-start.rc"
   exit $code) &
  start_pid=$!
  started=1
fi
# Job control: the side stream gets a process group of its own (stopped as one on an interrupt).
set -m
(
  pytest -q -p no:cacheprovider tests/unit "$@" >"$logs/unit" 2>&1
  echo $? >"$logs/unit.rc"
  # The tests' server started here: wait for its start (a failed one stops the main stream,
  # which ends this one too).
  if [ "$started" = 1 ]; then
    for _ in $(seq 300); do [ -f "$logs/neo4j-start.rc" ] && break; sleep 1; done
    [ "$(cat "$logs/neo4j-start.rc" 2>/dev/null)" = 0 ] || exit 1
  fi
  # First, while the main tier is in its first directories (its job tests lease kinds of their
  # own; its store-wide checks and unscoped workers come minutes later).
  pytest -q -p no:cacheprovider "$write_tier" --ignore="$write_in_main" "$@" >"$logs/write" 2>&1
  echo $? >"$logs/write.rc"
  if [ -z "${NEO4J_URI:-}" ]; then
    scripts/test-line-2026.sh >"$logs/line-2026" 2>&1
    echo $? >"$logs/line-2026.rc"
  fi
  JAVA_TOOL_OPTIONS="$short_jvm" pytest -q -p no:cacheprovider "${own_servers[@]}" "$@" \
    >"$logs/own-servers" 2>&1
  echo $? >"$logs/own-servers.rc"
  run_tail "$@"
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
# mypy keeps its cache in the machine's Hippograph cache (scripts/bootstrap.sh), shared by every
# checkout: it checks each file against its content hash, so a fresh clone re-checks only what
# differs (about 65 s of CPU less on this machine). HIPPOGRAPH_CACHE_DIR empty: the clone's own.
hg_cache=${HIPPOGRAPH_CACHE_DIR-${XDG_CACHE_HOME:-$HOME/.cache}/hippograph}
[ -n "$hg_cache" ] && export MYPY_CACHE_DIR="$hg_cache/mypy"
echo "==> mypy";   mypy || rc=1
echo "==> GraphQL schema drift"; python -m gql.export --check || rc=1
if [ -n "$start_pid" ]; then
  wait "$start_pid"
  src=$?
  start_pid=""
  cat "$logs/neo4j-start"
  [ "$src" = 0 ] || exit 1
fi
# (each file but the one kept here: a file given beside its directory would not be collected)
ignore=(--ignore="$speed_guard")
for path in "$write_tier"/test_*.py; do
  [ "$path" = "$write_in_main" ] || ignore+=(--ignore="$path")
done
for path in "${own_servers[@]}" "$local_runtime"; do ignore+=(--ignore="$path"); done
echo "==> pytest tests/integration tests/e2e (but most write tests, the speed guard and the tests with servers of their own)"
pytest -q -p no:cacheprovider tests/integration tests/e2e "${ignore[@]}" "$@"
prc=$?
pytest -q -p no:cacheprovider "$speed_guard" "$@" >"$logs/speed-guard" 2>&1
echo $? >"$logs/speed-guard.rc"
run_tail "$@"
wait "$side_pid"
side_pid=""
# side NAME TITLE: print a side run's output under TITLE; its exit code in $code (1: it did
# not run).
side() {
  echo "==> $2"
  cat "$logs/$1" 2>/dev/null
  code=$(cat "$logs/$1.rc" 2>/dev/null || echo 1)
}
side unit "pytest tests/unit"
urc=$code
side write "pytest $write_tier (beside the main tier, on the tests' server)"
wrc=$code
if [ -f "$logs/line-2026.rc" ]; then
  side line-2026 "pytest on the Neo4j 2026 line (vector search forms, multi-tenant reads, speed guard, write plans, 32-bit vectors, its Java, the page-cache warm-up)"
  [ "$code" = 0 ] || rc=1
fi
side speed-guard "pytest $speed_guard (the speed guard, on the tests' server)"
grc=$code
side local-runtime "pytest $local_runtime (a server of its own)"
lrc=$code
side own-servers "pytest with a server of their own (drills, first minutes, outage)"
orc=$code
# 5: no test collected; a selection (-k ...) may leave some of the runs empty, not all.
[ "$urc" = 5 ] && [ "$prc" = 5 ] && [ "$grc" = 5 ] && [ "$orc" = 5 ] && [ "$wrc" = 5 ] &&
  [ "$lrc" = 5 ] && {
  echo "pytest collected no tests"
  rc=1
}
for code in "$urc" "$prc" "$grc" "$orc" "$wrc" "$lrc"; do
  [ "$code" != 0 ] && [ "$code" != 5 ] && rc=1
done

echo "==> \`make run\`'s database after the tests"
"${run_env[@]}" python -m tests.isolation check "$fingerprint" || rc=1
exit $rc
