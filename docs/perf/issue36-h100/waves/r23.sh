#!/bin/bash
# The API and runtime suites (the tuner and the API now give a problem its
# device's SMs); the emitted .cu of two waves winners (random problems of
# r22) in the nvcc program, against the bench.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
timeout 200 sh tests/gpu/run.sh build/tests/gpu_api build/tests/gpu_runtime tests/gpu/bench_smoke.sh tests/gpu/json.sh > $OUT/suite.txt 2>&1
echo "== suite rc=$?"
grep -E "^(ok|not ok)|^Result|^Files|Failed|SKIP" $OUT/suite.txt | head -30 | cut -c1-200
export AUTOTUNE_WORKER=$PWD/build/autotune
timeout 150 sh tests/gpu/crosscheck_reduce.sh f32 rows 451023 202 f16 rows 1021970 164 > $OUT/crosscheck.txt 2>&1
echo "== crosscheck rc=$?"
grep -E "emitted point|crosscheck rows|autotune bench" $OUT/crosscheck.txt | cut -c1-220
echo END
