#!/bin/bash
# Ran 2026-11-28 (next session), H200: r30/ (all ok, memcheck 0 errors).
# Reduce abi 7 (1eac282: flat waves in rounds, the last rounds loaded
# together) verified as the GPU suite does: every flat point down
# columns of ten type and op pairs on gpu_reduce's shapes, bit for bit
# against the CPU (each also on 1, 7 and 300 SMs where it splits in
# waves), then compute-sanitizer memcheck on every 10th of two of them.
# And spec files on their cubin, answers checked: since the commit after
# 1eac282 a C++ kernel's cubin is found by its mangled symbol (before,
# such files fell back to nvcc's build), and no run has yet checked a
# spec file's answers through its cubin (kt_examples' harness does).
# Carry build/autotune, build/tests/gpu_reduce-rel, build/tests/lib.
# About 8 minutes.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r30; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export AUTOTUNE_WORKER=$PWD/build/autotune
ONLY=reduce_f32_sum,reduce_f32_max,reduce_bf16_sum,reduce_bf16_amax,reduce_f16_min
ONLY=$ONLY,reduce_f16_sumsq,reduce_f64_min,reduce_f64_sum,reduce_i32_sum,reduce_i32_amax
s0=$SECONDS
AT_GPU_DOWN=1 AT_GPU_FLAT=1 AT_GPU_ONLY=$ONLY timeout 300 \
  build/tests/gpu_reduce-rel > "$O/flat-down.tap" 2>&1
echo "== gpu_reduce flat down rc=$? $((SECONDS - s0)) s"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
AT_GPU_DOWN=1 AT_GPU_FLAT=1 AT_GPU_SAMPLE=10 AT_GPU_ONLY=reduce_f32_sum,reduce_bf16_amax \
  timeout 200 "$CS" --tool memcheck --error-exitcode 99 \
  build/tests/gpu_reduce-rel > "$O/memcheck.txt" 2>&1
echo "== memcheck every 10th rc=$?"
KT_ONLY="pnpoly stencil matmul spmv" KT_FLAGS="--budget 40 --strategy random" \
  timeout 200 bash tests/gpu/kt_examples.sh > "$O/kt.tap" 2>&1
grep -E "^(ok|not ok)|points verified" "$O/flat-down.tap" | cut -c1-160
grep -E "^(ok|not ok)" "$O/kt.tap" | cut -c1-160
grep -E "ERROR SUMMARY|^ok|^not ok" "$O/memcheck.txt" | head -6
