#!/usr/bin/env bash
# The scale curve: probe + canonicalise + diff + verdicts for 100, 1,000 and 10,000 generated
# tools with nested $defs (see mcp-contract-test/examples/scale.rs). One process per size, so
# each peak RSS is its own. Usage: scripts/perf/scale.sh [sizes…]
#
# Side by side with a revision: BASE=71079a0 RUNS=5 scripts/perf/scale.sh 10000 builds the
# example from `git archive $BASE` in its own target folder, sets up one SCALE_KEEP folder per
# side (each written by its own build), runs base, now, base, now, … and prints each run's line
# and then the medians [min–max] of the figures the targets are set in (the ratios are the
# example's own, measured within each run).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
. "$ROOT/scripts/perf/lib.sh"
cd "$ROOT"
cargo build --release -p mcp-contract-test --example scale
SCALE="$(built "$(workspace_target "$ROOT")/release/examples/scale")"
# The real interpreter, not a pyenv shim (which costs ~100 ms per start on its own).
export PYTHON="$(python3 -c 'import sys; print(sys.executable)')"
if [ -z "${BASE:-}" ]; then
  for n in "${@:-100 1000 10000}"; do
    for n1 in $n; do "$SCALE" "$n1"; done
  done
  exit 0
fi

PERF_DIR="${PERF_DIR:-/tmp/mcp-perf}"
RUNS="${RUNS:-5}"
B="$PERF_DIR/scale-base"
rm -rf "$B/src"; mkdir -p "$B/src"
git archive "$BASE" | tar -x -C "$B/src"
(cd "$B/src" && CARGO_TARGET_DIR="$B/target" cargo build --release -p mcp-contract-test --example scale)
BASE_SCALE="$(built "$B/target/release/examples/scale")"
runs="$PERF_DIR/scale.runs"
: > "$runs"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in ${@:-10000}; do
  for ((i = 1; i <= RUNS; i++)); do
    for side in base now; do
      if [ "$side" = base ]; then bin="$BASE_SCALE"; else bin="$SCALE"; fi
      line="$(SCALE_KEEP="$PERF_DIR/scale-keep-$side-$n" "$bin" "$n")"
      echo "$side $line" | tee -a "$runs"
    done
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$runs" "$BASE" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    side, *pairs = line.split()
    fields = dict(p.split("=", 1) for p in pairs if "=" in p)
    rows[(fields["tools"], side)].append(fields)
def ratio(f, prefix):  # older builds print no ratio: the same one from their totals
    return float(f[prefix + "total_ms"]) / float(f[prefix + "probe_ms"])
figures = {
    "half changed: total/probe": lambda f: ratio(f, ""),
    "CPU ms": lambda f: float(f["cpu_ms"]),
    "nothing changed: total/probe": lambda f: ratio(f, "unchanged_"),
    "CPU ms ": lambda f: float(f["unchanged_cpu_ms"]),
    "peak MB": lambda f: float(f["peak_rss_mb"]),
}
for (tools, side), runs in sorted(rows.items()):
    label = f"{sys.argv[2]}" if side == "base" else "now"
    cells = []
    for name, get in figures.items():
        values = [get(f) for f in runs]
        cells.append(f"{name.strip()} {statistics.median(values):.2f} [{min(values):.2f}-{max(values):.2f}]")
    print(f"{tools} tools, {label} ({len(runs)} runs): " + "; ".join(cells))
PY
