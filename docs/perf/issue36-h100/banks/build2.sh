#!/bin/sh
# Builds run7.sh's and run8.sh's binaries into gpurun/banks (on the build
# machine; no GPU needed): u8 16384x16384's winner (tile256x256 vec4
# packed, swizzled) from the emitted .cu, its point set by mk.py, without
# the element path (e0) and with it (e1); e1 with tile rows first always
# (e1r) and tile columns first always (e1c). From the repository root.
set -eu
V=docs/perf/issue36-h100/footprint/variants
T=$(mktemp -d)
mkdir -p gpurun/banks
build/autotune transpose --arch sm_90 --type u8 --rows 16384 --cols 16384 -o "$T/u8.cu" --quiet 2>/dev/null
P="AT_TILE_X=256 AT_TILE_Y=256 AT_BLOCK_X=16 AT_BLOCK_Y=32 AT_PACK=4 AT_VEC=4 AT_SMEM=2"
# shellcheck disable=SC2086
{
python3 $V/mk.py "$T/u8.cu" "$T/e0.cu" 0 $P AT_EDGE=0
python3 $V/mk.py "$T/u8.cu" "$T/e1.cu" 0 $P AT_EDGE=1
}
sed 's/const bool down = tiles_x > tiles_y;/const bool down = false;/' "$T/e1.cu" > "$T/e1r.cu"
sed 's/const bool down = tiles_x > tiles_y;/const bool down = true;/' "$T/e1.cu" > "$T/e1c.cu"
for v in e0 e1 e1r e1c; do
    /usr/local/cuda/bin/nvcc -O2 -arch=sm_90 -DAT_XC_TYPE=u8 tests/gpu/crosscheck.cu \
        "$T/$v.cu" -lcublas -o gpurun/banks/$v
done
rm -rf "$T"
