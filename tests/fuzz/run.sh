#!/bin/sh
# `make fuzz`: each target for SECONDS, growing its committed corpus in
# tests/fuzz/corpus/TARGET; a crash leaves its input in build/fuzz/crashes.
# Usage: run.sh SECONDS TARGET...
cd "$(dirname "$0")/../.." || exit 1
secs=$1
shift
mkdir -p build/fuzz/crashes
status=0
for t in "$@"; do
    mkdir -p "tests/fuzz/corpus/$t"
    echo "== $t: $secs s"
    build/fuzz/$t -max_total_time="$secs" -close_fd_mask=3 -timeout=10 \
        -rss_limit_mb=4096 -artifact_prefix=build/fuzz/crashes/$t- \
        "tests/fuzz/corpus/$t" 2>&1 | grep -E "^#[0-9]+ *(DONE|INITED)|ERROR|SUMMARY|Done" || true
    ls build/fuzz/crashes/$t-* >/dev/null 2>&1 && { echo "$t: CRASH"; status=1; }
done
exit $status
