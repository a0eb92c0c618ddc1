#!/bin/sh
# TAP: the two examples on a GPU, on the problem gpu_api tuned (its cache,
# so both are cache hits): the API program with CUDA runtime allocations,
# and an emitted .cu built with nvcc and run. Skips without a GPU.
cd "$(dirname "$0")/../.." || exit 1
. tests/gpu/tap.sh
T=${AT_GPU_TMP:-/tmp}
export AUTOTUNE_CACHE="$T/gpu_api_cache.db"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc

out=$(build/examples/api_example 2053 4099 2>&1)
rc=$?
skip_without_gpu $rc "$out"
plan 3
report $rc "api example: tuned kernel from the cache, right answer" "$out"
out=$(build/autotune transpose --arch auto --rows 2053 --cols 4099 \
          -o "$T/emitted.cu" 2>&1)
report $? "emit the tuned kernel from the cache" "$out"
out=$("$NVCC" -arch=sm_90 examples/emitted_main.cu "$T/emitted.cu" \
          -o "$T/emitted_main" 2>&1 && "$T/emitted_main" 2053 4099 2>&1 &&
      head -16 "$T/emitted.cu")
report $? "emitted .cu builds with nvcc and transposes right" "$out"
