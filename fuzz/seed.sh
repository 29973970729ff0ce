#!/bin/sh
# Seeds the fuzz corpora from the real server surfaces and the committed snapshots.
# Run from anywhere; writes fuzz/corpus/<target>/ (not committed).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
mkdir -p "$here/corpus/surface_parse" "$here/corpus/diff" "$here/corpus/snapshot_read"
n=0
for f in "$root"/fixtures/surfaces/*/*.json; do
    n=$((n + 1))
    cp "$f" "$here/corpus/surface_parse/surface-$n.json"
done
# diff: pairs of releases of one server, joined by a NUL byte.
for dir in "$root"/fixtures/surfaces/*/; do
    prev=""
    for f in "$dir"*.json; do
        if [ -n "$prev" ]; then
            n=$((n + 1))
            { cat "$prev"; printf '\0'; cat "$f"; } > "$here/corpus/diff/pair-$n"
        fi
        prev=$f
    done
done
for f in "$root"/examples/notes-server/tests/snapshots/*.snap "$root"/fixtures/snapshots/*/*/*.snap "$root"/fixtures/snapshots/*/*.snap; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    cp "$f" "$here/corpus/snapshot_read/snap-$n.snap"
done
echo "seeded $(ls "$here"/corpus/* | wc -l) files into $here/corpus"
