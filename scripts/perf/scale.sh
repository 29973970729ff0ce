#!/usr/bin/env bash
# The scale curve: probe + canonicalise + diff + verdicts for 100, 1,000 and 10,000 generated
# tools with nested $defs (see mcp-contract-test/examples/scale.rs). One process per size, so
# each peak RSS is its own. Usage: scripts/perf/scale.sh [sizes…]
#
# Side by side with revisions: BASE="71079a0 main" RUNS=5 scripts/perf/scale.sh 10000 builds
# the example from `git archive REV` for each revision in BASE, each in its own target folder,
# sets up one SCALE_KEEP folder per side (each written by its own build; this checkout's also
# holds its memo, made by an untimed run of the accepted release), runs the sides in turn
# (REV1, REV2, …, now; then again), and prints each run's line and then the medians [min–max]
# of the figures the targets are set in (the ratios are the example's own, measured within
# each run). The load average is printed before and after.
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
sides=()
declare -A bins
for rev in $BASE; do
  B="$PERF_DIR/scale-base-$rev"
  rm -rf "$B/src"; mkdir -p "$B/src"
  git archive "$rev" | tar -x -C "$B/src"
  (cd "$B/src" && CARGO_TARGET_DIR="$B/target" cargo build --release -p mcp-contract-test --example scale)
  bins[$rev]="$(built "$B/target/release/examples/scale")"
  sides+=("$rev")
done
bins[now]="$SCALE"
sides+=(now)
runs="$PERF_DIR/scale.runs"
: > "$runs"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in ${@:-10000}; do
  for ((i = 1; i <= RUNS; i++)); do
    for side in "${sides[@]}"; do
      line="$(SCALE_KEEP="$PERF_DIR/scale-keep-$side-$n" "${bins[$side]}" "$n")"
      echo "$side $line" | tee -a "$runs"
    done
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$runs" "${sides[@]}" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    side, *pairs = line.split()
    fields = dict(p.split("=", 1) for p in pairs if "=" in p)
    rows[(fields["tools"], side)].append(fields)
order = {side: i for i, side in enumerate(sys.argv[2:])}
def ratio(f, prefix):  # older builds print no ratio: the same one from their totals
    if prefix + "total_ms" not in f:
        return None
    return float(f[prefix + "total_ms"]) / float(f[prefix + "probe_ms"])
def number(field):
    return lambda f: float(f[field]) if f.get(field, "?") != "?" else None
figures = {
    "half changed: total/probe": lambda f: ratio(f, ""),
    "CPU ms": number("cpu_ms"),
    "judging CPU ms": number("evaluate_cpu_ms"),
    "nothing changed: total/probe": lambda f: ratio(f, "unchanged_"),
    "CPU ms ": number("unchanged_cpu_ms"),
    "judging CPU ms ": number("unchanged_evaluate_cpu_ms"),
    "first unchanged run after the change: total/probe": lambda f: ratio(f, "after_change_"),
    "peak MB": number("peak_rss_mb"),
}
for (tools, side), runs in sorted(rows.items(), key=lambda r: (int(r[0][0]), order[r[0][1]])):
    cells = []
    for name, get in figures.items():
        values = [v for v in map(get, runs) if v is not None]
        if values:
            cells.append(f"{name.strip()} {statistics.median(values):.2f} [{min(values):.2f}-{max(values):.2f}]")
    print(f"{tools} tools, {side} ({len(runs)} runs): " + "; ".join(cells))
PY
