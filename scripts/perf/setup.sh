#!/usr/bin/env bash
# Prepares everything the timing runs in docs/performance.md need, under $PERF_DIR
# (default /tmp/mcp-perf):
#   - the Node MCP server (scripts/perf/node, npm ci/install)
#   - the raw floor client and the mcp-contract CLI (release builds, workspace target/)
#   - a consumer crate (a copy of tests/consumer) whose contract suite probes the Node server,
#     built in dev and release profiles, with accepted snapshots
#   - the Python peer `mcp-contract` 0.6.0 in a venv (called by full path: its binary name is ours)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PERF_DIR="${PERF_DIR:-/tmp/mcp-perf}"
mkdir -p "$PERF_DIR"

echo "== node server"
(cd "$ROOT/scripts/perf/node" && { [ -f package-lock.json ] && npm ci --no-audit --no-fund || npm install --no-audit --no-fund; })
SERVER_JS="$ROOT/scripts/perf/node/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
# The memory server keeps its graph in a file; point it at a scratch one (it is only read on tool calls).
export MEMORY_FILE_PATH="$PERF_DIR/memory.jsonl"

echo "== raw floor and CLI (release)"
(cd "$ROOT" && cargo build --release -p mcp-contract-test --example raw_floor --example scale)
(cd "$ROOT" && cargo build --release -p mcp-contract-cli) || echo "(CLI did not build; its row is skipped)"

echo "== consumer crate"
C="$PERF_DIR/consumer"
rm -rf "$C/tests"
mkdir -p "$C/tests"
sed -e "s|path = \"../../mcp-contract-test\"|path = \"$ROOT/mcp-contract-test\"|" \
    -e 's|name = "consumer"|name = "consumer-perf"|' \
    "$ROOT/tests/consumer/Cargo.toml" > "$C/Cargo.toml"
cp "$ROOT/Cargo.lock" "$C/Cargo.lock"
cat > "$C/tests/contract.rs" <<RS
// The contract suite of a real Node MCP server (@modelcontextprotocol/server-memory).
#[mcp_contract_test::mcp_contract(server = "node $SERVER_JS")]
fn main() {}
RS
for profile in dev release; do
  (cd "$C" && CARGO_TARGET_DIR="$C/target" cargo test --no-run --profile "$profile" --test contract 2>&1 | tail -1)
done
bin_of() { # the newest contract-* test binary of a profile folder
  ls -t "$C/target/$1/deps"/contract-* | grep -v '\.d$' | head -1
}
DEV_BIN="$(bin_of debug)"; REL_BIN="$(bin_of release)"
ln -sf "$DEV_BIN" "$PERF_DIR/suite-dev"; ln -sf "$REL_BIN" "$PERF_DIR/suite-release"
# Record and accept: the first run writes .snap.new files, which become the accepted contract.
rm -rf "$C/tests/snapshots"
(cd "$C" && INSTA_UPDATE=always "$DEV_BIN" >/dev/null)
ls "$C/tests/snapshots" | head -20
(cd "$C" && "$DEV_BIN" | tail -2)

echo "== Python peer (mcp-contract 0.6.0) in a venv"
if [ ! -x "$PERF_DIR/peer-venv/bin/mcp-contract" ]; then
  python3 -m venv "$PERF_DIR/peer-venv"
  "$PERF_DIR/peer-venv/bin/pip" install --quiet "mcp-contract==0.6.0"
fi
ls -l "$PERF_DIR/peer-venv/bin/mcp-contract"
echo "ready: $PERF_DIR"
