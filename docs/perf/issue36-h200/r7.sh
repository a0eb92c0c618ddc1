#!/bin/bash
# Session of 2026-11-28 (afternoon), first call. A: does the skew's
# boundary matter (r7/footprint_skew.cu)? The H200's footprint lost 9
# points at output pitches 16 mod 64 (16400, 22736) and none at pitches
# that are multiples of 64; the tuned kernel's skewed stores start on
# 32-byte sectors. B: the crosschecks the last session left (the emitted
# .cu held to the tuned registers, AT_MAX_REGS). Carry build/autotune.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r7; mkdir -p $W && chmod 700 $W
export HOME=$W AUTOTUNE_CACHE=$W/c.db AUTOTUNE_WORKER=$PWD/build/autotune
nvcc -O2 -arch=native -Itests/gpu -o $W/fps docs/perf/issue36-h200/r7/footprint_skew.cu || exit 1
P=""
T="256 256 2 0"
# 1) u8 16384^2, the output pitch's place mod 128 and the skew's boundary
for lo in 16384 16400 16416 16448 16393; do P="$P 1 16384 16384 16384 $lo $T 32 0"; done
for lo in 16400 16416 16448 16393; do for sk in 64 128; do P="$P 1 16384 16384 16384 $lo $T $sk 0"; done; done
# 2) the input pitch's place, output on the lines
for li in 16400 16416 16448 16393; do P="$P 1 16384 16384 $li 16384 $T 32 0"; done
# 3) the H200's bad case, both sides 16 mod 64
for sk in 32 64 128; do P="$P 1 16384 16384 22736 22736 $T $sk 0"; done
# 4) i8 19194x22735 at its own pitches, two tiles, skew rows loaded or not
for t in "256 128" "256 256"; do for sk in 32 64 128; do for xr in 0 1; do
  P="$P 1 19194 22735 22735 19194 $t 2 0 $sk $xr"; done; done; done
# shellcheck disable=SC2086
$W/fps $P | tee $W/fp.txt
echo "== B: crosschecks after AT_MAX_REGS"
timeout 300 sh tests/gpu/crosscheck_reduce.sh f16:sumsq rows 100344 1534 i32:amax rows 36716 1430 2>&1 | tail -12
timeout 200 sh tests/gpu/crosscheck.sh f32:8192x8192 u8:16384x16384 2>&1 | grep -v "^  " | tail -12
echo "== table"
sed -E 's/^1-byte ([0-9x]+) ld ([0-9/]+) \(mod 128: ([0-9/]+)\) tile ([0-9]+) rows x ([0-9]+) bytes skew ([0-9]+) xr ([01]).*footprint [0-9]+ GB\/s ([0-9.]+%).*/\1 \2 m\3 t\4x\5 sk\6 xr\7 \8/' $W/fp.txt
