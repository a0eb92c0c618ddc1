#!/bin/sh
# Builds the A/B binaries of run1.sh into gpurun/banks (on the build
# machine; no GPU needed): the 1-byte and f16 winners of
# ../footprint/variants/ as emitted .cu in tests/gpu/crosscheck.cu, each
# with one unit of padding a row (old: AT_CSKEW 0, AT_ROW_EXTRA 1) and
# with the layout gen/transpose_smem.c chooses (new: 2 units after every
# 32, rows of 137 units). From the repository root.
set -eu
V=docs/perf/issue36-h100/footprint/variants
T=$(mktemp -d)
mkdir -p gpurun/banks
build/autotune transpose --arch sm_90 --type i8 --rows 19194 --cols 22735 -o "$T/i8.cu" --quiet 2>/dev/null
build/autotune transpose --arch sm_90 --type f16 --rows 579 --cols 380071 -o "$T/f16.cu" --quiet 2>/dev/null
P="AT_TILE_X=128 AT_TILE_Y=256 AT_BLOCK_X=16 AT_BLOCK_Y=32 AT_PACK=4 AT_VEC=2 AT_SMEM=1"
P="$P AT_TILES=1 AT_SKEW=1 AT_EDGE=1 AT_SHIFT_IN=1"
PF="AT_TILE_X=128 AT_TILE_Y=128 AT_BLOCK_X=16 AT_BLOCK_Y=32 AT_PACK=2 AT_VEC=4 AT_SMEM=1"
PF="$PF AT_TILES=1 AT_SKEW=1 AT_EDGE=1 AT_SHIFT_IN=1"
# shellcheck disable=SC2086
{
python3 $V/mk.py "$T/i8.cu" "$T/w_old.cu" 0 $P
python3 $V/mk.py "$T/f16.cu" "$T/h_old.cu" 0 $PF
}
for v in w h; do
    sed 's/^#define AT_SMEM 1$/#define AT_SMEM 1\n#define AT_CSKEW 2\n#define AT_ROW_EXTRA 1/' \
        "$T/${v}_old.cu" > "$T/${v}_new.cu"
done
for v in w_old w_new h_old h_new; do
    t=i8; case $v in h*) t=f16 ;; esac
    /usr/local/cuda/bin/nvcc -O2 -arch=sm_90 -DAT_XC_TYPE=$t tests/gpu/crosscheck.cu \
        "$T/$v.cu" -lcublas -o gpurun/banks/$v
done
rm -rf "$T"
