#!/bin/bash
# What a reduction of N bytes can reach against the copy of N bytes
# (r26/read_ceiling.cu: a kernel that only streams the input, against
# cudaMemcpyAsync, 64 MiB to 1 GiB), and r25's two reductions again
# (f32 max down 520288x169 read 1.6 points under the bench in the
# program, with either build). Carry build/autotune. About 3 minutes.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r26; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
nvcc -O3 -arch=native -I tests/gpu docs/perf/issue36-h200/r26/read_ceiling.cu \
  -o "$W/rc" && timeout 120 "$W/rc" > "$O/ceiling.txt" 2>&1
timeout 200 sh tests/gpu/crosscheck_reduce.sh f32:max rows 520288 169 \
  i32:min rows 25931 1127 f32:max rows 520288 169 > "$O/xcr.txt" 2>&1
cat "$O/ceiling.txt"
grep -E "emitted|crosscheck|autotune bench" "$O/xcr.txt" | cut -c1-220
