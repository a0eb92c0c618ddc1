#!/bin/bash
# The committed tree (ae91a58: the gathered strips' copies through
# at_cp16/at_cp_commit/at_cp_wait_prior, transpose abi 9) once more:
# gpu_variants' 1- and 2-byte strip tests, then the nvcc crosscheck of
# u8 31x3552786 and f16 31x1776393 with the file's cubin and, XC_SOURCE=1,
# built by nvcc from its source (the launcher asks for shared memory past
# 48 KB there). Carry build/autotune, build/tests/gpu_variants-rel and
# build/tests/lib; from the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r68; mkdir -p "$W/g" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
for t in 1 2; do
    AT_GPU_TESTS="strip_points_${t}_bytes" AT_GPU_TMP=$W/g timeout 200 \
        build/tests/gpu_variants-rel > "$O/strip$t.tap" 2>&1
    echo "== gpu_variants strip_points_${t}_bytes rc=$? $SECONDS s: $(grep -c 'points verified' "$O/strip$t.tap") shapes"
    grep -E "^(ok|not ok)|FAILED" "$O/strip$t.tap" | cut -c1-160 | head -5
done
left=$((585 - SECONDS))
[ "$left" -gt 30 ] && XC_SOURCE=1 timeout "$left" sh tests/gpu/crosscheck.sh u8:31x3552786 \
    f16:31x1776393 > "$O/xc.txt" 2>&1
echo "== crosscheck rc=$? $SECONDS s"; grep -E "emitted|crosscheck|source|bench:" "$O/xc.txt" | cut -c1-200
