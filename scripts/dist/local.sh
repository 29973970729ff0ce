#!/usr/bin/env bash
# This machine's packages of the CLI: the Python wheel and the npm packages (the platform's and
# the main one), under target/dist/ (or $CARGO_TARGET_DIR/dist/), their paths printed one a line
# — what a release makes for each target, made here for this one.
#
#   scripts/dist/local.sh                      builds the release binary first (--profile packaged)
#   scripts/dist/local.sh --binary PATH        packages a binary already built (the tests give
#                                              theirs: no second build)
#
# Install them without any registry:
#   python3 -m venv /tmp/v && /tmp/v/bin/pip install --no-index "$(scripts/dist/local.sh | grep '\.whl$')"
#   npm install --offline ./target/dist/*.tgz
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
binary=""
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary="${2:?--binary needs a path}"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "local.sh: unknown argument $1 (--binary PATH, or nothing)" >&2; exit 2 ;;
  esac
done

target_dir="${CARGO_TARGET_DIR:-$ROOT/target}"
case "$target_dir" in /*) ;; *) target_dir="$ROOT/$target_dir" ;; esac
out="$target_dir/dist"
python="$(command -v python3 || command -v python || true)"
[ -n "$python" ] || { echo "local.sh: python3 is needed (scripts/dist/dist.py)" >&2; exit 2; }
dist=("$python" "$ROOT/scripts/dist/dist.py")

target="$("${dist[@]}" host-target)"
if [ -z "$binary" ]; then
  # The release workflow's profile (Cargo.toml's [profile.packaged]); cargo's progress on stderr,
  # the paths alone on stdout.
  (cd "$ROOT" && nice -n 10 cargo build --locked --profile packaged -p mcp-contract-cli --bin mcp-contract >&2)
  binary="$target_dir/packaged/mcp-contract"
  case "$target" in *windows*) binary="$binary.exe" ;; esac
fi

# The binary must be what it claims to be: this workspace's version (`mcp-contract 0.1.0`).
version="$("${dist[@]}" version)"
said="$("$binary" --version)" || { echo "local.sh: $binary --version failed" >&2; exit 2; }
if [ "$said" != "mcp-contract $version" ]; then
  echo "local.sh: $binary says \`$said\`, the workspace is $version: rebuild it" >&2
  exit 2
fi

mkdir -p "$out"
"${dist[@]}" wheel --binary "$binary" --target "$target" --out "$out"
"${dist[@]}" npm-platform --binary "$binary" --target "$target" --out "$out"
"${dist[@]}" npm-main --out "$out"
