#!/bin/sh
# TAP: the two examples on a GPU, on the problem gpu_api tuned (its cache,
# so both are cache hits): the API program with CUDA runtime allocations,
# and an emitted .cu built with nvcc and run. Skips without a GPU.
cd "$(dirname "$0")/../.." || exit 1
T=${AT_GPU_TMP:-/tmp}
export AUTOTUNE_CACHE="$T/gpu_api_cache.db"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc

out=$(build/examples/api_example 2053 4099 2>&1)
rc=$?
if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q "no CUDA"; then
    echo "1..0 # SKIP $(printf '%s\n' "$out" | grep "no CUDA" | head -1)"
    exit 0
fi
echo "1..3"
n=0
report() { # rc, description, output
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
    printf '%s\n' "$3" | sed 's/^/# /'
}
report $rc "api example: tuned kernel from the cache, right answer" "$out"
out=$(build/autotune transpose --arch auto --rows 2053 --cols 4099 \
          -o "$T/emitted.cu" 2>&1)
report $? "emit the tuned kernel from the cache" "$out"
out=$("$NVCC" -arch=sm_90 examples/emitted_main.cu "$T/emitted.cu" \
          -o "$T/emitted_main" 2>&1 && "$T/emitted_main" 2053 4099 2>&1 &&
      head -16 "$T/emitted.cu")
report $? "emitted .cu builds with nvcc and transposes right" "$out"
