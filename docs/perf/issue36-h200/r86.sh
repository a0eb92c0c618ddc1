#!/bin/bash
# After a01c157 (transpose abi 12; and 0b4ea7b's safefile fix, which had
# not run on a GPU): (1) the nvcc crosscheck of a 1-byte skewed problem
# (its tile takes the extra rows a step a loop turn again), the emitted
# .cu in a plain program against `autotune bench`; (2) the GPU suite
# apart from gpu_variants and gpu_reduce (run in r85 and unchanged), as
# many of its tests as the call allows, each test's TAP kept. Build
# first: make gpu-build python-wheel, then
#   tar czf build/carry.tgz build/autotune build/autotune-test \
#     build/autotune-san build/examples build/bench build/tests/gpu_api \
#     build/tests/gpu_runtime build/tests/lib build/wheels
# and carry build/carry.tgz; from the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
tar xzf build/carry.tgz
W=/tmp/r86; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W
timeout 90 sh tests/gpu/crosscheck.sh u8:6491x26754 > "$O/crosscheck.txt" 2>&1
echo "== crosscheck rc=$? $SECONDS s"; tail -5 "$O/crosscheck.txt" | cut -c1-160
for t in build/tests/gpu_api tests/gpu/restart.sh tests/gpu/hit_memo.sh \
    tests/gpu/tune_list.sh tests/gpu/json.sh tests/gpu/examples.sh \
    tests/gpu/bench_smoke.sh tests/gpu/faults.sh tests/gpu/general.sh \
    tests/gpu/multi_size.sh build/tests/gpu_runtime tests/gpu/specs.sh; do
    left=$((570 - SECONDS))
    n=$(basename "$t" .sh)
    if [ "$left" -lt 30 ]; then echo "== $n not run: ${left} s left"; continue; fi
    d=$W/g-$n; rm -rf "$d"; mkdir -m 700 "$d"
    s=$SECONDS
    AT_GPU_TMP=$d timeout "$left" sh tests/gpu/run.sh "$t" > "$O/$n.tap" 2>&1
    echo "== $n rc=$? $((SECONDS - s)) s: $(grep -cE '^ok' "$O/$n.tap") ok, $(grep -cE '^not ok' "$O/$n.tap") not ok"
    grep -E "^not ok|^Result|# SKIP" "$O/$n.tap" | head -5
done
