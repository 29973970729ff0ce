#!/usr/bin/env bash
# Side by side, in one hyperfine run, against the same real Node MCP server (scripts/perf/node):
#   floor        the raw floor client (initialize + tools/list, exits at the answer); timed
#                again last (floor-again), as the load drifts during a run
#   suite-dev    the consumer crate's built contract test binary, dev profile (what `cargo test`
#                runs), started directly — cargo's own start-up is not counted
#   suite-rel    the same suite built with --release
#   cli          `mcp-contract check` (our CLI) against the same accepted snapshots
#   peer         the Python peer `mcp-contract check` 0.6.0 (its own contract file), if installed
#   *-base       the release suite and the CLI built from another revision, if set up
#                (`BASE=main scripts/perf/setup.sh`)
# SERVER=memory (default): @modelcontextprotocol/server-memory, which exits as soon as its stdin
# closes. SERVER=everything: @modelcontextprotocol/server-everything, which takes ~0.4 s to exit
# (a 350 ms timer armed at initialize): the suite and the CLI must not wait for that.
# Prints the load average before and after (the machine is shared: compare rows of one run).
# Run scripts/perf/setup.sh first. Usage: [SERVER=everything] [RUNS=20 WARMUP=3] scripts/perf/side_by_side.sh [hyperfine options]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PERF_DIR="${PERF_DIR:-/tmp/mcp-perf}"
. "$ROOT/scripts/perf/lib.sh"
TARGET="$(workspace_target "$ROOT")"
C="$PERF_DIR/consumer"
SERVER="${SERVER:-memory}"
case "$SERVER" in
  memory) SUITE=suite; NAME=contract ;;
  everything) SUITE=everything; NAME=everything ;;
  *) echo "SERVER must be memory or everything" >&2; exit 2 ;;
esac
SERVER_JS="$ROOT/scripts/perf/node/node_modules/@modelcontextprotocol/server-$SERVER/dist/index.js"
export MEMORY_FILE_PATH="$PERF_DIR/memory.jsonl"
PEER="$PERF_DIR/peer-venv/bin/mcp-contract"
CLI="$(built "$TARGET/release/mcp-contract")"
FLOOR="$(built "$TARGET/release/examples/raw_floor")"
for suite in "$PERF_DIR/$SUITE-dev" "$PERF_DIR/$SUITE-release"; do built "$suite" >/dev/null; done
# Sanity: every command succeeds once before timing.
"$FLOOR" node "$SERVER_JS"
(cd "$C" && "$PERF_DIR/$SUITE-dev" -q | tail -1)
(cd "$C" && "$PERF_DIR/$SUITE-release" -q | tail -1)
(cd "$C" && "$CLI" check --dir tests/snapshots --name "$NAME" -- node "$SERVER_JS" | tail -1)
peer=()
if [ -x "$PEER" ]; then
  # The peer's contract file (its `snapshot` command), recorded once.
  (cd "$PERF_DIR" && "$PEER" snapshot -f "peer-$SERVER.json" -- node "$SERVER_JS" >/dev/null 2>&1 || true)
  (cd "$PERF_DIR" && "$PEER" check -f "peer-$SERVER.json" -- node "$SERVER_JS" | tail -1) || true
  peer=(-n peer "$PEER check -f $PERF_DIR/peer-$SERVER.json -- node $SERVER_JS")
fi
# Built from another revision by `BASE=main scripts/perf/setup.sh`: timed in the same run.
base=()
if [ -x "$PERF_DIR/$SUITE-base-release" ]; then
  base+=(-n suite-rel-base "$PERF_DIR/$SUITE-base-release -q")
fi
if [ -x "$PERF_DIR/cli-base" ]; then
  base+=(-n cli-base "$PERF_DIR/cli-base check --dir tests/snapshots --name $NAME -- node $SERVER_JS")
fi
cd "$C"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine -N --warmup "${WARMUP:-3}" --runs "${RUNS:-20}" "$@" \
  --export-markdown "$PERF_DIR/side_by_side-$SERVER.md" --export-json "$PERF_DIR/side_by_side-$SERVER.json" \
  -n floor "$FLOOR node $SERVER_JS" \
  -n suite-dev "$PERF_DIR/$SUITE-dev -q" \
  -n suite-rel "$PERF_DIR/$SUITE-release -q" \
  -n cli "$CLI check --dir tests/snapshots --name $NAME -- node $SERVER_JS" \
  "${base[@]}" \
  -n floor-again "$FLOOR node $SERVER_JS" \
  "${peer[@]}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# Medians (less swayed than means by the shared machine's hiccups), each against the floor's.
# hyperfine runs the commands one after the other, so the floor is timed first and again after
# the suites: the load drifts in between, and the mean of the two floors is the reference.
python3 - "$PERF_DIR/side_by_side-$SERVER.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
if not results or any(not r.get("times") for r in results):
    sys.exit("hyperfine measured nothing")
floors = [r["median"] for r in results if r["command"] in ("floor", "floor-again")]
floor = sum(floors) / len(floors)
print(f"floor medians {', '.join(f'{f*1000:.1f}' for f in floors)} ms (reference: their mean)")
for r in results:
    print(f'{r["command"]:<16} median {r["median"]*1000:7.1f} ms  {r["median"]/floor:5.2f}x floor  '
          f'cpu {(r["user"]+r["system"])*1000:6.1f} ms')
PY
