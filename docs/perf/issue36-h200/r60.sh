#!/bin/bash
# Item 4 on this session's lease, with the tree as committed: `make
# gpu-tune-bench` (cold, warm and hit of 8192x8192 f32 and f64, the
# lease's NVRTC speed), then the README's main command cold and a hit in
# a new process, each timed whole as a user sees it. Carry build/autotune.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r60; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
BENCH_OUT=$O timeout 200 sh tests/gpu/tune_bench.sh 2> "$O/tune-bench.txt"
echo "== tune bench rc=$? $SECONDS s"; cat "$O/tune-bench.txt" | cut -c1-200 | tail -20
export AUTOTUNE_CACHE=$W/main.db CUDA_CACHE_DISABLE=1
cd "$W" || exit 1
{ time "$AUTOTUNE_WORKER" transpose --arch auto > main-cold.log 2>&1; } 2> time-cold.txt
echo "== main cold rc=$? $(grep real time-cold.txt)"; grep -E 'tuned in|median|NVRTC' main-cold.log | cut -c1-200
{ time "$AUTOTUNE_WORKER" transpose --arch auto > main-hit.log 2>&1; } 2> time-hit.txt
echo "== main hit $(grep real time-hit.txt)"; tail -3 main-hit.log | cut -c1-200
