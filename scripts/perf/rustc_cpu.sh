#!/usr/bin/env bash
# RUSTC_WRAPPER for compile_cost.sh: runs rustc and appends its CPU time to $RUSTC_CPU_LOG as
# "USER SYS CRATE KIND" (KIND: lib, proc-macro, bin, test, build-script), so that each compile
# unit's own CPU is known (cargo's --timings only has wall time, swayed by the machine's load).
# Cargo's own queries (`rustc -vV`, `--print`) are passed through unlogged.
set -euo pipefail
rustc="$1"; shift
name="" kind="" prev=""
for arg in "$@"; do
  case "$prev" in
    --crate-name) name="$arg" ;;
    --crate-type) kind="$arg" ;;
  esac
  [ "$arg" = --test ] && kind=test
  prev="$arg"
done
[ -n "$name" ] || exec "$rustc" "$@"
[ "$name" = build_script_build ] && kind=build-script
exec /usr/bin/time -a -o "$RUSTC_CPU_LOG" -f "%U %S $name ${kind:-bin}" "$rustc" "$@"
