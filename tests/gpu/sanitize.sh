#!/bin/sh
# GPU: compute-sanitizer's memcheck and racecheck over a sample of each
# family's points: transpose's every element size (every AT_GPU_SAMPLE-th,
# default 40) on the suite's odd shapes, and reduce's every type, op and
# direction (every AT_GPU_REDUCE_SAMPLE-th, default 150) on an even and
# an odd shape and the check problems: no out-of-bounds access, no
# shared-memory race. racecheck is far slower: it takes every 4th point
# of memcheck's sample. Arguments: some of the binaries only
# (gpu_reduce).
cd "$(dirname "$0")/../.." || exit 1
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ ! -x "$CS" ]; then echo "1..0 # SKIP no compute-sanitizer"; exit 0; fi
[ $# -gt 0 ] || set -- gpu_variants gpu_reduce
echo "1..$(($# * 2))"
n=0
for bin in "$@"; do
    sample=${AT_GPU_SAMPLE:-40}
    [ $bin = gpu_reduce ] && sample=${AT_GPU_REDUCE_SAMPLE:-150}
    for tool in memcheck racecheck; do
        n=$((n + 1))
        every=$sample
        [ $tool = racecheck ] && every=$((sample * 4))
        out=$(AT_GPU_SAMPLE=$every "$CS" --tool $tool --error-exitcode 99 \
            --print-limit 20 "build/tests/$bin-rel" 2>&1)
        rc=$?
        if [ $rc -eq 0 ]; then echo "ok $n - $bin $tool: no errors"
        else echo "not ok $n - $bin $tool (exit $rc)"; fi
        printf '%s\n' "$out" | grep -E "SUMMARY|points verified|SKIP|rror" |
            sed 's/ on 9 shapes.*//' | head -30 | sed 's/^/# /'
    done
done
