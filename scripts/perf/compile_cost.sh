#!/usr/bin/env bash
# Compile cost for a user: a consumer crate whose only dependency is mcp-contract-test (as a
# dev-dependency), built from clean in its own target folder: `cargo build --tests --timings`,
# dev profile. Prints, per build, the CPU time (user + sys, what the load on a shared machine
# sways least), the wall time, the number of compile units cargo ran (from cargo's --timings
# report), the CPU of each crate's rustc (scripts/perf/rustc_cpu.sh as RUSTC_WRAPPER), and the
# crates in the graph. Fails if a build compiled nothing or reused anything (a measurement of
# nothing).
#
# mcp-contract-test is a path dependency here, which cargo compiles incrementally; from
# crates.io it would not be. CARGO_INCREMENTAL=0 (the default here) builds it as a user's
# build does; INCREMENTAL=1 measures the path-dependency build instead.
#
#   scripts/perf/compile_cost.sh                      # this checkout, once
#   FEATURES=http scripts/perf/compile_cost.sh        # with features of mcp-contract-test
#   BASE=71079a0 RUNS=3 scripts/perf/compile_cost.sh  # side by side with a revision: base, now,
#                                                     # base, now, ... then the medians
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PERF_DIR="${PERF_DIR:-/tmp/mcp-perf}"
RUNS="${RUNS:-1}"
export CARGO_INCREMENTAL="${INCREMENTAL:-0}"
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing (Debian package \`time\`)" >&2; exit 1; }

# consumer DIR SRC: the consumer crate, depending on SRC's mcp-contract-test, with SRC's lock file.
consumer() {
  local dir="$1" src="$2"
  rm -rf "$dir"; mkdir -p "$dir/tests"
  local dep="path = \"$src/mcp-contract-test\""
  [ -n "${FEATURES:-}" ] && dep="$dep, features = [\"${FEATURES//,/\", \"}\"]"
  sed -e "s|path = \"../../mcp-contract-test\"|$dep|" "$src/tests/consumer/Cargo.toml" > "$dir/Cargo.toml"
  grep -q "$src/mcp-contract-test" "$dir/Cargo.toml" || { echo "could not point $dir/Cargo.toml at $src" >&2; exit 1; }
  cp "$src/Cargo.lock" "$dir/Cargo.lock"
  cp "$src/tests/consumer/tests/contract.rs" "$dir/tests/contract.rs"
  (cd "$dir" && cargo fetch -q)
}

# build LABEL DIR: one clean build; appends "LABEL cpu wall units" to $PERF_DIR/compile_cost.runs.
build() {
  local label="$1" dir="$2" times="$2/time.txt" units="$2/rustc-cpu.txt"
  rm -rf "$dir/target" "$units"
  (cd "$dir" && CARGO_TARGET_DIR="$dir/target" RUSTC_WRAPPER="$ROOT/scripts/perf/rustc_cpu.sh" \
      RUSTC_CPU_LOG="$units" /usr/bin/time -o "$times" -f "%e %U %S %M" cargo build --tests --timings -q)
  python3 - "$label" "$times" "$dir/target/cargo-timings/cargo-timing.html" "$PERF_DIR/compile_cost.runs" "$units" <<'PY'
import collections, json, re, sys
label, times, html, runs, rustc = sys.argv[1:]
wall, user, sys_, peak = open(times).read().split()[-4:]
page = open(html).read()
def cell(name):
    m = re.search(rf"<td>{name}:</td><td>(\d+)</td>", page)
    if not m:
        sys.exit(f"no '{name}' in {html}: cargo's --timings report changed; update this script")
    return int(m.group(1))
dirty, fresh = cell("Dirty units"), cell("Fresh units")
if dirty == 0 or fresh != 0:
    sys.exit(f"{label}: {dirty} units compiled, {fresh} reused: not a clean build, nothing measured")
units = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);\s*\n", page, re.S).group(1))
if len(units) != dirty:
    sys.exit(f"{label}: the report lists {len(units)} units, its summary {dirty}")
cpu = float(user) + float(sys_)
per_crate = collections.Counter()
for line in open(rustc):
    if line.startswith("Command"):  # /usr/bin/time's note on a failed rustc; cargo said why
        continue
    u, s, name, kind = line.split()
    per_crate[name if kind in ("lib", "rlib", "proc-macro") else f"{name} ({kind})"] += float(u) + float(s)
print(f"{label}: {cpu:.1f} s CPU ({user} user + {sys_} sys), {float(wall):.1f} s wall, "
      f"{dirty} units compiled, {int(peak) // 1024} MB peak; rustc CPU by crate:")
print("  " + ", ".join(f"{n} {c:.2f}" for n, c in per_crate.most_common()))
open(runs, "a").write(f"{label} {cpu:.2f} {float(wall):.2f} {dirty}\n")
open(runs + ".crates", "a").write(json.dumps([label, per_crate]) + "\n")
PY
}

crates() { # the crates in DIR's graph (normal, build and dev edges, deduplicated)
  (cd "$1" && cargo tree -e normal,build,dev --prefix none | sed 's/ (\*)//' | sort -u)
}

mkdir -p "$PERF_DIR"
: > "$PERF_DIR/compile_cost.runs"; : > "$PERF_DIR/compile_cost.runs.crates"
# A copy of this checkout as it is (uncommitted changes included): editing the tree while the
# builds run does not change what they measure.
NOW="$PERF_DIR/compile-consumer"
rm -rf "$PERF_DIR/compile-src"; mkdir -p "$PERF_DIR/compile-src"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar -c --no-recursion) |
  tar -x -C "$PERF_DIR/compile-src"
consumer "$NOW" "$PERF_DIR/compile-src"
echo "crates in the graph: $(crates "$NOW" | wc -l)"; crates "$NOW" | sed 's/^/  /'
sides=(now)
if [ -n "${BASE:-}" ]; then
  B="$PERF_DIR/compile-base"
  rm -rf "$B/src"; mkdir -p "$B/src"
  (cd "$ROOT" && git archive "$BASE") | tar -x -C "$B/src"
  consumer "$B/consumer" "$B/src"
  echo "crates in the graph of $BASE: $(crates "$B/consumer" | wc -l)"
  diff <(crates "$B/consumer" | sed 's/ (.*//') <(crates "$NOW" | sed 's/ (.*//') | grep '^[<>]' | sed 's/^/  /' || true
  sides=(base now)
fi
echo "CARGO_INCREMENTAL=$CARGO_INCREMENTAL; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 1; i <= RUNS; i++)); do
  for side in "${sides[@]}"; do
    if [ "$side" = base ]; then build "base ($BASE)" "$B/consumer"; else build "now" "$NOW"; fi
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$PERF_DIR/compile_cost.runs" <<'PY'
import collections, json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    *label, cpu, wall, units = line.split()
    rows.setdefault(" ".join(label), []).append((float(cpu), float(wall), int(units)))
for label, runs in rows.items():
    print(f"{label:<16} median of {len(runs)}: {statistics.median(r[0] for r in runs):.1f} s CPU, "
          f"{statistics.median(r[1] for r in runs):.1f} s wall, {runs[0][2]} units; "
          f"CPU per run: {', '.join(f'{r[0]:.1f}' for r in runs)}")
crates = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1] + ".crates"):
    label, per_crate = json.loads(line)
    for name, c in per_crate.items():
        crates[name][label].append(c)
labels = list(rows)
print("rustc CPU by crate, medians (s): " + " | ".join(labels))
for name, by in sorted(crates.items(), key=lambda kv: -max(statistics.median(v) for v in kv[1].values())):
    print(f"  {name:<28} " + " | ".join(f"{statistics.median(by[l]):6.2f}" if by.get(l) else "     -" for l in labels))
if len(rows) == 2:
    (b, base), (n, now) = rows.items()
    ratio = statistics.median(r[0] for r in now) / statistics.median(r[0] for r in base)
    print(f"CPU now / base: {ratio:.3f}")
PY
echo "reports: $(ls -d "$NOW"/target/cargo-timings/cargo-timing.html ${B:+"$B/consumer/target/cargo-timings/cargo-timing.html"})"
