#!/bin/bash
# The final checks of this session's changes, part 1: bench_smoke with
# cuTENSOR (its transpose plan refactored, its reduce contender), the
# nvcc crosscheck of the packed 16-bit path, gpu_reduce on every type, op
# and shape (every 3rd point) with the final template, memcheck and
# racecheck on a sample of the packed path.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME /tmp/cutensor
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .cutensor/libcutensor.so.2.sm90.xz /tmp/cutensor/libcutensor.so.2
export AUTOTUNE_CUTENSOR=/tmp/cutensor/libcutensor.so.2
export AUTOTUNE_WORKER=$PWD/build/autotune
t0=$(date +%s)
sh tests/gpu/bench_smoke.sh > $OUT/bench_smoke.tap 2>&1; echo "bench_smoke rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E '^(ok|not ok)' $OUT/bench_smoke.tap
t0=$(date +%s)
timeout 100 sh tests/gpu/crosscheck_reduce.sh bf16:min cols 311518 127 f16:amax rows 1015457 47 > $OUT/crosscheck.txt 2>&1; echo "crosscheck rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "^crosscheck|autotune bench: [a-z]" $OUT/crosscheck.txt
t0=$(date +%s)
AT_GPU_SAMPLE=3 timeout 230 build/tests/gpu_reduce-rel > $OUT/gpu_reduce.tap 2>&1; echo "gpu_reduce rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "^(ok|not ok)|FAILED" $OUT/gpu_reduce.tap | tr '\n' ' ' | head -c 1500; echo
t0=$(date +%s)
AT_GPU_ONLY='reduce_bf16_min,reduce_f16_amax,reduce_f32_max' AT_GPU_REDUCE_SAMPLE=40 timeout 110 sh tests/gpu/sanitize.sh gpu_reduce > $OUT/sanitize.tap 2>&1; echo "sanitize rc=$? ($(( $(date +%s) - t0 )) s)"
cat $OUT/sanitize.tap | head -20
echo END
