# Shared by the perf scripts (sourced, not run).

# The target folder cargo uses for the workspace at $1: CARGO_TARGET_DIR, a .cargo/config
# `build.target-dir`, or <workspace>/target. The scripts never assume `target/`.
workspace_target() {
  (cd "$1" && cargo metadata --format-version 1 --no-deps --offline 2>/dev/null \
      || cargo metadata --format-version 1 --no-deps) |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])'
}

# An executable that must exist after a build; fails the script, naming it, when it does not.
built() {
  [ -x "$1" ] || { echo "expected a built executable at $1, found none" >&2; exit 1; }
  printf '%s\n' "$1"
}
