#!/bin/bash
# GPU suite tests one at a time under tests/gpu/run.sh, each with its own
# AT_GPU_TMP and TAP file, as long as the call allows: gpu_tests.sh
# SECONDS WORK TEST... (SECONDS: the time it may take; it starts no test
# with under 20 s left; WORK: a folder of the caller's, where NAME.tap
# goes). Prints a line a test; from the repository root.
set -u
limit=$1 work=$2
shift 2
for t in "$@"; do
    left=$((limit - SECONDS))
    n=$(basename "$t" .sh)
    if [ "$left" -lt 20 ]; then echo "== $n not run: ${left} s left"; continue; fi
    d=$work/g-$n; rm -rf "$d"; mkdir -m 700 "$d"
    s=$SECONDS
    AT_GPU_TMP=$d timeout "$left" sh tests/gpu/run.sh "$t" > "$work/$n.tap" 2>&1
    echo "== $n rc=$? $((SECONDS - s)) s: $(grep -cE '^ok' "$work/$n.tap") ok, $(grep -cE '^not ok' "$work/$n.tap") not ok"
    grep -E "^not ok|^Result|# SKIP" "$work/$n.tap" | head -5
done
