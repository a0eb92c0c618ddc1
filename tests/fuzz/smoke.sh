#!/bin/sh
# The fuzz smoke run of `make check` (TAP): each target replays its
# committed corpus, then fuzzes for FUZZ_SMOKE_SECONDS (default 10) into a
# scratch corpus; any crash fails.
cd "$(dirname "$0")/../.." || exit 1
secs=${FUZZ_SMOKE_SECONDS:-10}
set -- fuzz_options fuzz_problem fuzz_record fuzz_cache fuzz_expr fuzz_spec
echo "1..$#"
n=0
for t in "$@"; do
    n=$((n + 1))
    scratch=$(mktemp -d)
    out=$(build/fuzz/$t -max_total_time="$secs" -close_fd_mask=3 -timeout=10 \
          -artifact_prefix="$scratch/" "$scratch" "tests/fuzz/corpus/$t" 2>&1)
    rc=$?
    runs=$(printf '%s\n' "$out" | sed -n 's/^Done \([0-9]*\) runs.*/\1/p')
    if [ $rc -eq 0 ]; then
        echo "ok $n - $t: corpus of $(ls tests/fuzz/corpus/$t | wc -l) and $runs runs in $secs s"
    else
        echo "not ok $n - $t (exit $rc)"
        printf '%s\n' "$out" | grep -E "ERROR|SUMMARY|#0|#1 |#2 " | head -20 | sed 's/^/# /'
    fi
    rm -rf "$scratch"
done
