#!/usr/bin/env bash
# The scale curve: probe + canonicalise + diff + verdicts for 100, 1,000 and 10,000 generated
# tools with nested $defs (see mcp-contract-test/examples/scale.rs). One process per size, so
# each peak RSS is its own. Usage: scripts/perf/scale.sh [sizes…]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
. "$ROOT/scripts/perf/lib.sh"
cd "$ROOT"
cargo build --release -p mcp-contract-test --example scale
SCALE="$(built "$(workspace_target "$ROOT")/release/examples/scale")"
# The real interpreter, not a pyenv shim (which costs ~100 ms per start on its own).
export PYTHON="$(python3 -c 'import sys; print(sys.executable)')"
for n in "${@:-100 1000 10000}"; do
  for n1 in $n; do "$SCALE" "$n1"; done
done
