#!/bin/sh
# The crosschecks' other half: `autotune bench FAMILY ARGS...` of one
# problem (in the caller's AUTOTUNE_CACHE): the point it timed and its
# table's rows, printed as "autotune bench: ...", the whole log on failure.
T=$(mktemp -d)
rc=0
build/autotune bench "$@" --csv "$T/b.csv" --quiet > "$T/bench.log" 2>&1 ||
    { cat "$T/bench.log"; rc=1; }
# the tuned point, then the table's rows
sed -n 's/^\[1\/1\] [^:]*: \([^ ]*\) .*/autotune bench: point \1/p' "$T/bench.log"
sed -n '/^shape /,/^$/p' "$T/bench.log" | tail -n +3 | grep . |
    sed 's/^/autotune bench: /'
rm -rf "$T"
exit $rc
