#!/bin/sh
# TAP: a problem of whole tiles is tuned (f32 1024x2048, a tenth of the
# space); its .cu, whose kernel has no element path, is built by nvcc
# beside tests/gpu/general.cu, whose driver calls the launcher on that
# shape, on shapes its tiles do not divide and on buffers off its vectors
# (the launcher's plain kernel), and 1 x INT_MAX (AT_GPU_BIG= leaves it
# out: 16 GB), each checked bit for bit; the same for a problem whose
# output rows are off the 32-byte sectors (its kernel skews its stores).
# Skips without a GPU.
cd "$(dirname "$0")/../.." || exit 1
. tests/gpu/tap.sh
T=${AT_GPU_TMP:-$(mktemp -d)}
export AUTOTUNE_CACHE="$T/general_cache.db"
rm -f "$AUTOTUNE_CACHE"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
A=${AUTOTUNE:-build/autotune}

out=$($A transpose --arch auto --size 1024x2048 --effort measure \
      --name gen -o "$T/gen.cu" 2>&1)
rc=$?
skip_without_gpu $rc "$out"
plan 5
report $rc "tuned f32 1024x2048" "$(printf '%s\n' "$out" | tail -3)"
edge=$(sed -n 's/^#define AT_EDGE \([01]\)$/\1/p' "$T/gen.cu" | head -1)
[ "$edge" = 0 ] && grep -q at_general_copy "$T/gen.cu"
report $? "its kernel has no element path (AT_EDGE $edge), its launcher a plain kernel" \
    "$(grep -m1 '^ \* point:' "$T/gen.cu")"
out=$("$NVCC" -O3 -arch=native -DGEN=gen -o "$T/general" \
      tests/gpu/general.cu "$T/gen.cu" 2>&1 &&
      "$T/general" 1024 2048 ${AT_GPU_BIG-big} 2>&1)
report $? "the launcher on its shape, other shapes and buffers off the vectors" \
    "$out"

# Output rows 16 bytes past the sectors: a kernel that skews its stores,
# still without the element path; every launch with such rows.
out=$($A transpose --arch auto --size 1024x2048 --ld-out 1028 \
      --effort measure --name gen -o "$T/skew.cu" 2>&1)
rc=$?
skew=$(sed -n 's/^#define AT_SKEW \([01]\)$/\1/p' "$T/skew.cu" | head -1)
edge=$(sed -n 's/^#define AT_EDGE \([01]\)$/\1/p' "$T/skew.cu" | head -1)
[ $rc -eq 0 ] && [ "$skew" = 1 ] && [ "$edge" = 0 ]
report $? "tuned f32 1024x2048 ld_out 1028: skewed stores (AT_SKEW $skew), no element path (AT_EDGE $edge)" \
    "$(grep -m1 '^ \* point:' "$T/skew.cu")"
out=$("$NVCC" -O3 -arch=native -DGEN=gen -o "$T/general-skew" \
      tests/gpu/general.cu "$T/skew.cu" 2>&1 &&
      "$T/general-skew" 1024 2048 - 4 2>&1)
report $? "the skewing launcher on its shape, other shapes and buffers off the vectors" \
    "$out"
