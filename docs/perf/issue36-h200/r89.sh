#!/bin/bash
# After r88 (packed tiles' extra rows a word a row, transpose abi 13):
# (1) compute-sanitizer racecheck on a sample of the skewed 1- and 2-byte
# points (r88's sanitize ran out of time after memcheck); (2) a transpose
# sweep of 100 at a seed drawn here with that tree, as far as the call
# allows (no cuTENSOR: it does not fit a call's 64 MiB with the rest).
# Carry build/autotune, build/tests/gpu_variants-rel and build/tests/lib;
# from the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r89; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
AT_GPU_SAMPLE=120 AT_GPU_TESTS='every_point_*_rows_off_sectors' timeout 150 \
    "$CS" --tool racecheck --error-exitcode 99 --print-limit 20 \
    build/tests/gpu_variants-rel > "$O/racecheck.txt" 2>&1
echo "== racecheck rc=$? $SECONDS s"
grep -E "^(not )?ok|SUMMARY|kernels" "$O/racecheck.txt" | cut -c1-140
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "== seed $S"
AUTOTUNE_CACHE=$W/c.db timeout $((585 - SECONDS)) build/autotune bench transpose --sweep 100 \
    --seed "$S" --csv "$O/sweep-$S.csv" > "$O/sweep-$S.log" 2>&1
echo "== sweep rc=$? $SECONDS s"
tail -30 "$O/sweep-$S.log" | cut -c1-170
