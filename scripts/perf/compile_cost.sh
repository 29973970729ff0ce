#!/usr/bin/env bash
# Compile cost for a user: a consumer crate whose only dependency is mcp-contract-test (as a
# dev-dependency), built from clean in its own target folder: wall time of `cargo build --tests`,
# the number of crates compiled, and the per-crate timings (cargo --timings HTML report).
# FEATURES="http" (or https, rmcp) measures a build with those features of mcp-contract-test.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PERF_DIR="${PERF_DIR:-/tmp/mcp-perf}"
C="$PERF_DIR/compile-consumer"
rm -rf "$C"; mkdir -p "$C/tests"
sed -e "s|path = \"../../mcp-contract-test\"|path = \"$ROOT/mcp-contract-test\"|" \
    "$ROOT/tests/consumer/Cargo.toml" > "$C/Cargo.toml"
if [ -n "${FEATURES:-}" ]; then
  sed -i "s|path = \"$ROOT/mcp-contract-test\"|path = \"$ROOT/mcp-contract-test\", features = [\"$FEATURES\"]|" "$C/Cargo.toml"
fi
cp "$ROOT/Cargo.lock" "$C/Cargo.lock"
cp "$ROOT/tests/consumer/tests/contract.rs" "$C/tests/contract.rs"
cd "$C"
cargo fetch -q
echo "crates in the graph (normal+build+dev, deduplicated):"
cargo tree -e normal,build,dev --prefix none | sed 's/ (\*)//' | sort -u | wc -l
cargo tree -e normal,build,dev --prefix none | sed 's/ (\*)//' | sort -u
# Wall time depends on what else the machine does; CPU time (user + sys) much less so.
CARGO_TARGET_DIR="$C/target" /usr/bin/time -f "clean cargo build --tests: %e s wall, %U s user + %S s sys CPU, %M KB peak" \
  cargo build --tests --timings 2>&1 | tail -3
echo "units compiled: $(grep -o '"name":"[^"]*"' "$C"/target/cargo-timings/cargo-timing.html 2>/dev/null | wc -l || true)"
ls "$C"/target/cargo-timings/
