# The tests' own local Neo4j, sourced by scripts/test.sh (and by hand before running pytest:
# `source scripts/test-env.sh && .venv/bin/hippograph neo4j start`): its own folder
# (<home>/test-neo4j, data and password included) and ports (`make run`'s + 100: bolt 7787,
# http 7574), so tests never read or write the database `make run` serves. Every process the
# tests start (pytest, the CLI and API subprocesses) inherits these variables.
# With NEO4J_URI set the tests use that server and nothing here applies.
if [ -z "${NEO4J_URI:-}" ]; then
  _hg_home="${HIPPOGRAPH_HOME:-.hippograph}"
  case "$_hg_home" in /*) ;; *) _hg_home="$(pwd)/$_hg_home" ;; esac
  # `make run`'s ports, kept for the 2026 line's run and the isolation check.
  export HIPPOGRAPH_RUN_BOLT_PORT="${HIPPOGRAPH_RUN_BOLT_PORT:-${HIPPOGRAPH_NEO4J_BOLT_PORT:-7687}}"
  export HIPPOGRAPH_RUN_HTTP_PORT="${HIPPOGRAPH_RUN_HTTP_PORT:-${HIPPOGRAPH_NEO4J_HTTP_PORT:-7474}}"
  export HIPPOGRAPH_NEO4J_DIR="${HIPPOGRAPH_TEST_NEO4J_DIR:-$_hg_home/test-neo4j}"
  export HIPPOGRAPH_NEO4J_BOLT_PORT="${HIPPOGRAPH_TEST_BOLT_PORT:-$((HIPPOGRAPH_RUN_BOLT_PORT + 100))}"
  export HIPPOGRAPH_NEO4J_HTTP_PORT="${HIPPOGRAPH_TEST_HTTP_PORT:-$((HIPPOGRAPH_RUN_HTTP_PORT + 100))}"
  unset _hg_home
  # The tests' database changes with every test: a plan re-made whenever its statistics moved
  # (at most once a minute, `make run`'s setting) was a fifth of the tests' server CPU; an hour
  # outlasts a run. The speed guard asks for fresh plans itself (db.prepareForReplanning).
  export HIPPOGRAPH_NEO4J_MIN_REPLAN_INTERVAL_S="${HIPPOGRAPH_NEO4J_MIN_REPLAN_INTERVAL_S:-3600}"
fi
# The tests' servers live for minutes, not days: the JIT's second tier (C2) compiles only what
# stays hot thirty times as long (on the read and write integration tests, Neo4j's CPU with its
# start, one run each: x10 237 s, x30 207 s, x100 212 s; docs/benchmarks.md).
# C2 stays on: C1 alone cost more (268 s; its code is slower), and Lucene computes vector
# distances with the Vector API only with it. scripts/test.sh and scripts/test-line-2026.sh
# start their servers with it (JAVA_TOOL_OPTIONS); every local server gets the same thresholds
# by default (setting neo4j_late_c2, graph/runtime/local_neo4j.py LATE_C2).
HIPPOGRAPH_TEST_JIT="-XX:Tier4InvocationThreshold=150000 -XX:Tier4MinInvocationThreshold=18000"
HIPPOGRAPH_TEST_JIT+=" -XX:Tier4CompileThreshold=450000 -XX:Tier4BackEdgeThreshold=1200000"
