#!/bin/bash
# As a user would, two problems of r44's H200 sweep: c128 12092x538 (the
# one of 64 MiB or more where cuBLAS led, 97.3% against 96.4%) and f32
# 122038x2062 (4-byte, 89.3%; cuBLAS 67.9%): each tuned cold, its emitted
# .cu in the nvcc program beside memcpy and cuBLAS, then autotune bench
# from the same cache. Carry build/autotune.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r45; mkdir -p "$W" && chmod 700 "$W"
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune PATH=$PWD/build:$PATH
timeout 250 sh tests/gpu/crosscheck.sh c128:12092x538 f32:122038x2062 2>&1 | tail -30
echo "== end $SECONDS s"
