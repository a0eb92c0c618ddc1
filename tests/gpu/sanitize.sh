#!/bin/sh
# GPU: compute-sanitizer's memcheck and racecheck over a sample of every
# element size's points (every AT_GPU_SAMPLE-th, default 40), each on the
# suite's odd shapes: no out-of-bounds access, no shared-memory race.
# racecheck is far slower: it takes every 4th point of memcheck's sample.
cd "$(dirname "$0")/../.." || exit 1
BIN=build/tests/gpu_variants-rel
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ ! -x "$CS" ]; then echo "1..0 # SKIP no compute-sanitizer"; exit 0; fi
sample=${AT_GPU_SAMPLE:-40}
echo "1..2"
n=0
for tool in memcheck racecheck; do
    n=$((n + 1))
    every=$sample
    [ $tool = racecheck ] && every=$((sample * 4))
    out=$(AT_GPU_SAMPLE=$every "$CS" --tool $tool --error-exitcode 99 --print-limit 20 "$BIN" 2>&1)
    rc=$?
    if [ $rc -eq 0 ]; then echo "ok $n - $tool: no errors"; else echo "not ok $n - $tool (exit $rc)"; fi
    printf '%s\n' "$out" | grep -E "SUMMARY|points verified|SKIP|rror" | sed 's/ on 9 shapes.*//' | head -20 | sed 's/^/# /'
done
