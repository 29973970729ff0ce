#!/usr/bin/env bash
# A large contract suite under nextest, side by side with nextest's own floor, in one hyperfine
# run:
#   trivial        `cargo nextest run` of 1,000 empty #[test] functions (the floor: nextest
#                  starting 1,000 test processes, what any suite of 1,000 tests costs)
#   nextest        `cargo nextest run` of the contract suite of a generated 1,000-tool server
#                  (examples/scale.rs's tools; the server serves the accepted release, the
#                  everyday run: 1,001 tests, all passing)
#   cargo-test     `cargo test` of the same suite (one process)
# With BASE=<git revision> (e.g. BASE=main), the same suite is also built against that
# revision of mcp-contract-test, and `cargo test` of it is timed in the same run
# (cargo-test-base); BASE_NEXTEST=1 adds its nextest run too (slow before one judgement per run:
# every process judged the whole suite).
# TOOLS=N changes the size (default 1000). Prints the load average before and after; CPU time
# of each command is in the exported JSON (user, system).
# Usage: [TOOLS=1000] [RUNS=5] [BASE=main] scripts/perf/nextest_scale.sh [hyperfine options]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PERF_DIR="${PERF_DIR:-/tmp/mcp-perf}"
. "$ROOT/scripts/perf/lib.sh"
TARGET="$(workspace_target "$ROOT")"
N="${TOOLS:-1000}"
D="$PERF_DIR/nextest-scale-$N"
S="$D/server"
# The real interpreter, not a pyenv shim (which costs ~100 ms per start on its own).
PYTHON="$(python3 -c 'import sys; print(sys.executable)')"
command -v hyperfine >/dev/null || { echo "hyperfine is missing: scripts/perf/setup.sh installs it" >&2; exit 1; }
cargo nextest --version >/dev/null

(cd "$ROOT" && cargo build -q --release -p mcp-contract-test --example scale)
if [ ! -f "$S/server-v1.json" ]; then
  rm -rf "$S"
  "$(built "$TARGET/release/examples/scale")" --setup "$N" "$S"
fi

# consumer DIR CRATE_PATH: a crate with the contract suite (tests/contract.rs, accepted snapshots)
# and 1,000 trivial tests (tests/trivial.rs), depending on mcp-contract-test at CRATE_PATH.
consumer() {
  local C="$1" crate="$2"
  mkdir -p "$C/tests"
  sed -e "s|path = \"../../mcp-contract-test\"|path = \"$crate\"|" \
      -e "s|name = \"consumer\"|name = \"consumer-nextest-scale\"|" \
      "$ROOT/tests/consumer/Cargo.toml" > "$C/Cargo.toml"
  printf '\n[[test]]\nname = "trivial"\n' >> "$C/Cargo.toml"
  cp "$ROOT/Cargo.lock" "$C/Cargo.lock"
  cat > "$C/tests/contract.rs" <<RS
// The contract suite of a generated server of $N tools (mcp-contract-test/examples/scale.rs).
#[mcp_contract_test::mcp_contract(
    server = "$PYTHON $ROOT/fixtures/servers/surface_server.py $S/server-v1.json --prebuilt tools/list=$S/tools-v1.json",
    timeout = 120
)]
fn main() {}
RS
  if [ ! -f "$C/tests/trivial.rs" ]; then
    { echo "// $N empty tests: what nextest itself costs for a suite of that many tests."
      for i in $(seq -w 0 "$((N - 1))"); do echo "#[test] fn t$i() {}"; done; } > "$C/tests/trivial.rs"
  fi
  rm -rf "$C/tests/snapshots"
  cp -r "$S/snapshots" "$C/tests/snapshots"
  (cd "$C" && CARGO_TARGET_DIR="$C/target" cargo test -q --no-run --test contract --test trivial 2>&1 | tail -1)
}

C="$D/consumer"
consumer "$C" "$ROOT/mcp-contract-test"
cd "$C"
export CARGO_TARGET_DIR="$C/target"
# Sanity: both pass, and every item is a test (N tools and the server item; N trivial tests).
ran() { # TEST COUNT: nextest's summary line says COUNT tests ran and passed
  local last
  last="$(cargo nextest run --test "$1" 2>&1 | tail -1)"; echo "$last"
  case "$last" in *" $2 tests run: $2 passed"*) ;; *) echo "--test $1 did not run its $2 tests" >&2; exit 1 ;; esac
}
ran contract "$((N + 1))"
ran trivial "$N"
base=()
if [ -n "${BASE:-}" ]; then
  B="$D/base"
  rm -rf "$B/src"; mkdir -p "$B/src"
  (cd "$ROOT" && git archive "$BASE") | tar -x -C "$B/src"
  consumer "$B/consumer" "$B/src/mcp-contract-test"
  base=(-n cargo-test-base "sh -c 'cd $B/consumer && CARGO_TARGET_DIR=$B/consumer/target cargo test -q --test contract >/dev/null'")
  if [ -n "${BASE_NEXTEST:-}" ]; then
    base+=(-n nextest-base "sh -c 'cd $B/consumer && CARGO_TARGET_DIR=$B/consumer/target cargo nextest run --test contract >/dev/null 2>&1'")
  fi
fi
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine --warmup "${WARMUP:-1}" --runs "${RUNS:-5}" "$@" \
  --export-markdown "$D/nextest_scale.md" --export-json "$D/nextest_scale.json" \
  -n trivial "cargo nextest run --test trivial" \
  -n nextest "cargo nextest run --test contract" \
  -n cargo-test "cargo test -q --test contract" \
  "${base[@]}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
