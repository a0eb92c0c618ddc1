#!/bin/bash
# The final checks, part 2: the rest of the GPU suite that this session's
# changes reach (the API, the runtime, the examples, JSON, planted faults,
# restarts, general, multi-size, tune lists); the crosscheck of f16 amax
# down 1015457x47 by HEAD~2 (7d6e932, before min.NaN) and this build
# (program 79.1% against bench 87.3% in part 1: new, or nvcc against
# NVRTC as before?); then gpu_reduce's types and ops part 1 did not reach.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
t0=$(date +%s)
timeout 330 sh tests/gpu/run.sh build/tests/gpu_api build/tests/gpu_runtime tests/gpu/examples.sh tests/gpu/json.sh tests/gpu/faults.sh tests/gpu/restart.sh tests/gpu/general.sh tests/gpu/multi_size.sh tests/gpu/tune_list.sh > $OUT/suite.tap 2>&1; echo "suite rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "^(ok|not ok|tests/|build/|All tests|Result|Files=)" $OUT/suite.tap | grep -v "^ok" | head -30; echo "ok lines: $(grep -c '^ok' $OUT/suite.tap), not ok: $(grep -c '^not ok' $OUT/suite.tap)"
t0=$(date +%s)
cp build/autotune /tmp/autotune-new
for b in head new; do
  if [ $b = head ]; then cp gpurun/autotune-head build/autotune; else cp /tmp/autotune-new build/autotune; fi
  timeout 60 sh tests/gpu/crosscheck_reduce.sh f16:amax rows 1015457 47 > $OUT/crosscheck-$b.txt 2>&1
  echo "$b rc=$?"; grep -E "^emitted|^crosscheck|autotune bench: [a-z]" $OUT/crosscheck-$b.txt | cut -c1-220
done
cp /tmp/autotune-new build/autotune
echo "crosschecks ($(( $(date +%s) - t0 )) s)"
t0=$(date +%s)
left=$(( 560 - $(date +%s) + T0 ))
AT_GPU_ONLY='reduce_bf16_sumsq,reduce_bf16_amax,reduce_f16_*,reduce_f64_*,reduce_i32_*' AT_GPU_SAMPLE=6 timeout $left build/tests/gpu_reduce-rel > $OUT/gpu_reduce-rest.tap 2>&1; echo "gpu_reduce rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "^(ok|not ok)|FAILED" $OUT/gpu_reduce-rest.tap | tr '\n' ' ' | head -c 1500; echo
echo END
