#!/usr/bin/env bash
# Prepares everything the timing runs in docs/performance.md need, under $PERF_DIR
# (default /tmp/mcp-perf):
#   - the Node MCP servers (scripts/perf/node, npm ci/install): server-memory, which exits as
#     soon as its stdin closes, and server-everything, which takes ~0.4 s to exit
#   - the raw floor client and the mcp-contract CLI (release builds, the workspace's target
#     folder: CARGO_TARGET_DIR is honoured)
#   - a consumer crate (a copy of tests/consumer) with one contract suite per Node server
#     (tests/contract.rs: memory, tests/everything.rs: everything), built in dev and release
#     profiles, with accepted snapshots
#   - the Python peer `mcp-contract` 0.6.0 in a venv (called by full path: its binary name is ours)
#   - hyperfine (Debian package) when missing
# scripts/perf/nextest_scale.sh sets up its own consumer (1,000 generated tools) on first use.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PERF_DIR="${PERF_DIR:-/tmp/mcp-perf}"
. "$ROOT/scripts/perf/lib.sh"
TARGET="$(workspace_target "$ROOT")"
mkdir -p "$PERF_DIR"
command -v hyperfine >/dev/null || { apt-get install -y -qq hyperfine || { apt-get update -qq && apt-get install -y -qq hyperfine; }; }

echo "== node server"
(cd "$ROOT/scripts/perf/node" && { [ -f package-lock.json ] && npm ci --no-audit --no-fund || npm install --no-audit --no-fund; })
SERVER_JS="$ROOT/scripts/perf/node/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
EVERYTHING_JS="$ROOT/scripts/perf/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
# The memory server keeps its graph in a file; point it at a scratch one (it is only read on tool calls).
export MEMORY_FILE_PATH="$PERF_DIR/memory.jsonl"

echo "== raw floor and CLI (release)"
(cd "$ROOT" && cargo build --release -p mcp-contract-test --example raw_floor --example scale)
built "$TARGET/release/examples/raw_floor" >/dev/null
(cd "$ROOT" && cargo build --release -p mcp-contract-cli) || echo "(CLI did not build; its row is skipped)"

echo "== consumer crate"
C="$PERF_DIR/consumer"
rm -rf "$C/tests"
mkdir -p "$C/tests"
sed -e "s|path = \"../../mcp-contract-test\"|path = \"$ROOT/mcp-contract-test\"|" \
    -e 's|name = "consumer"|name = "consumer-perf"|' \
    "$ROOT/tests/consumer/Cargo.toml" > "$C/Cargo.toml"
cp "$ROOT/Cargo.lock" "$C/Cargo.lock"
cat >> "$C/Cargo.toml" <<TOML

[[test]]
name = "everything"
harness = false
TOML
cat > "$C/tests/contract.rs" <<RS
// The contract suite of a real Node MCP server (@modelcontextprotocol/server-memory).
#[mcp_contract_test::mcp_contract(server = "node $SERVER_JS")]
fn main() {}
RS
cat > "$C/tests/everything.rs" <<RS
// The contract suite of a real Node MCP server that takes ~0.4 s to exit once its stdin closes
// (@modelcontextprotocol/server-everything).
#[mcp_contract_test::mcp_contract(server = "node $EVERYTHING_JS")]
fn main() {}
RS
for profile in dev release; do
  (cd "$C" && CARGO_TARGET_DIR="$C/target" cargo test --no-run --profile "$profile" --test contract --test everything 2>&1 | tail -1)
done
bin_of() { # the newest NAME-* test binary of a profile folder; fails when there is none
  local found
  found="$(ls -t "$C/target/$1/deps/$2"-* 2>/dev/null | grep -v '\.d$' | head -1)"
  built "$found"
}
ln -sf "$(bin_of debug contract)" "$PERF_DIR/suite-dev"
ln -sf "$(bin_of release contract)" "$PERF_DIR/suite-release"
ln -sf "$(bin_of debug everything)" "$PERF_DIR/everything-dev"
ln -sf "$(bin_of release everything)" "$PERF_DIR/everything-release"
# Record and accept: the first run writes .snap.new files, which become the accepted contract.
rm -rf "$C/tests/snapshots"
(cd "$C" && INSTA_UPDATE=always "$PERF_DIR/suite-dev" >/dev/null)
(cd "$C" && INSTA_UPDATE=always "$PERF_DIR/everything-dev" >/dev/null)
ls "$C/tests/snapshots" | head -40
(cd "$C" && "$PERF_DIR/suite-dev" | tail -2)
(cd "$C" && "$PERF_DIR/everything-dev" | tail -2)

if [ -n "${BASE:-}" ]; then
  # The same suites and CLI built from another revision (BASE=main): side_by_side.sh then times
  # them in the same run as the current ones (suite-rel-base, cli-base), so that a change is
  # measured against what it changes under the same load.
  echo "== base: $BASE"
  B="$PERF_DIR/base"
  rm -rf "$B/src"; mkdir -p "$B/src"
  (cd "$ROOT" && git archive "$BASE") | tar -x -C "$B/src"
  (cd "$B/src" && CARGO_TARGET_DIR="$B/src/target" cargo build -q --release -p mcp-contract-cli) || echo "(base CLI did not build)"
  ln -sf "$B/src/target/release/mcp-contract" "$PERF_DIR/cli-base"
  rm -rf "$B/consumer"; cp -r "$C" "$B/consumer"; rm -rf "$B/consumer/target"
  sed -i "s|path = \"$ROOT/mcp-contract-test\"|path = \"$B/src/mcp-contract-test\"|" "$B/consumer/Cargo.toml"
  (cd "$B/consumer" && CARGO_TARGET_DIR="$B/consumer/target" cargo test -q --no-run --release --test contract --test everything 2>&1 | tail -1)
  ln -sf "$(ls -t "$B/consumer/target/release/deps"/contract-* | grep -v '\.d$' | head -1)" "$PERF_DIR/suite-base-release"
  ln -sf "$(ls -t "$B/consumer/target/release/deps"/everything-* | grep -v '\.d$' | head -1)" "$PERF_DIR/everything-base-release"
fi

echo "== Python peer (mcp-contract 0.6.0) in a venv"
if [ ! -x "$PERF_DIR/peer-venv/bin/mcp-contract" ]; then
  python3 -m venv "$PERF_DIR/peer-venv"
  "$PERF_DIR/peer-venv/bin/pip" install --quiet "mcp-contract==0.6.0"
fi
ls -l "$PERF_DIR/peer-venv/bin/mcp-contract"
echo "ready: $PERF_DIR"
