#!/usr/bin/env bash
# Side by side, in one hyperfine run, against the same Node MCP server
# (@modelcontextprotocol/server-memory, scripts/perf/node):
#   floor        the raw floor client (initialize + tools/list, exits at the answer)
#   suite-dev    the consumer crate's built contract test binary, dev profile (what `cargo test`
#                runs), started directly — cargo's own start-up is not counted
#   suite-rel    the same suite built with --release
#   cli          `mcp-contract check` (our CLI) against the same accepted snapshots
#   peer         the Python peer `mcp-contract check` 0.6.0 (its own contract file)
# Run scripts/perf/setup.sh first. Usage: [RUNS=20 WARMUP=3] scripts/perf/side_by_side.sh [hyperfine options]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PERF_DIR="${PERF_DIR:-/tmp/mcp-perf}"
C="$PERF_DIR/consumer"
SERVER_JS="$ROOT/scripts/perf/node/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
export MEMORY_FILE_PATH="$PERF_DIR/memory.jsonl"
PEER="$PERF_DIR/peer-venv/bin/mcp-contract"
CLI="$ROOT/target/release/mcp-contract"
# The peer's contract file (its `snapshot` command), recorded once.
(cd "$PERF_DIR" && "$PEER" snapshot -f peer-contract.json -- node "$SERVER_JS" >/dev/null 2>&1 || true)
# Sanity: every command succeeds once before timing.
"$ROOT/target/release/examples/raw_floor" node "$SERVER_JS"
(cd "$C" && "$PERF_DIR/suite-dev" -q | tail -1)
(cd "$C" && "$CLI" check --dir tests/snapshots -- node "$SERVER_JS" | tail -1)
(cd "$PERF_DIR" && "$PEER" check -f peer-contract.json -- node "$SERVER_JS" | tail -1)
cd "$C"
hyperfine -N --warmup "${WARMUP:-3}" --runs "${RUNS:-20}" "$@" \
  --export-markdown "$PERF_DIR/side_by_side.md" --export-json "$PERF_DIR/side_by_side.json" \
  -n floor "$ROOT/target/release/examples/raw_floor node $SERVER_JS" \
  -n suite-dev "$PERF_DIR/suite-dev -q" \
  -n suite-rel "$PERF_DIR/suite-release -q" \
  -n cli "$CLI check --dir tests/snapshots -- node $SERVER_JS" \
  -n peer "$PEER check -f $PERF_DIR/peer-contract.json -- node $SERVER_JS"
