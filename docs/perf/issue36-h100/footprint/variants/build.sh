#!/bin/sh
# Builds run.sh's binaries into gpurun/xc (on the build machine; no GPU
# needed): the emitted .cu of each type, its point set by mk.py, linked
# into tests/gpu/crosscheck.cu by nvcc. From the repository root.
set -eu
V=docs/perf/issue36-h100/footprint/variants
T=$(mktemp -d)
mkdir -p gpurun/xc
build/autotune transpose --arch sm_90 --type i8 --rows 19194 --cols 22735 -o "$T/i8.cu" --quiet
build/autotune transpose --arch sm_90 --type f16 --rows 579 --cols 380071 -o "$T/f16.cu" --quiet
P="AT_TILE_X=128 AT_TILE_Y=256 AT_BLOCK_X=16 AT_BLOCK_Y=32 AT_PACK=4 AT_VEC=2 AT_SMEM=1"
P="$P AT_TILES=1 AT_SKEW=1 AT_EDGE=1 AT_SHIFT_IN=1"
PF="AT_TILE_X=128 AT_TILE_Y=128 AT_BLOCK_X=16 AT_BLOCK_Y=32 AT_PACK=2 AT_VEC=4 AT_SMEM=1"
PF="$PF AT_TILES=1 AT_SKEW=1 AT_EDGE=1 AT_SHIFT_IN=1"
# shellcheck disable=SC2086
{
python3 $V/mk.py "$T/i8.cu" "$T/w0.cu" 0 $P
python3 $V/mk.py "$T/i8.cu" "$T/w1.cu" 1 $P
python3 $V/mk.py "$T/i8.cu" "$T/w2.cu" 0 $P AT_TILES=2
python3 $V/mk.py "$T/i8.cu" "$T/w3.cu" 1 $P AT_TILES=2
python3 $V/mk.py "$T/f16.cu" "$T/h0.cu" 0 $PF
python3 $V/mk.py "$T/f16.cu" "$T/h1.cu" 1 $PF
}
for b in 3 4; do
    sed "s/^#define AT_TILES 2\$/#define AT_TILES 2\n#define AT_MIN_BLOCKS $b/" "$T/w2.cu" > "$T/w2b$b.cu"
done
for v in w0 w1 w2 w3 w2b3 w2b4 h0 h1; do
    t=i8; case $v in h*) t=f16 ;; esac
    /usr/local/cuda/bin/nvcc -O2 -arch=sm_90 -DAT_XC_TYPE=$t tests/gpu/crosscheck.cu \
        "$T/$v.cu" -lcublas -o gpurun/xc/$v
done
cp $V/run.sh gpurun/xc/run.sh
rm -rf "$T"
