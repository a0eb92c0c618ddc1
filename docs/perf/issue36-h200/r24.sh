#!/bin/bash
# The tuned cubin in the emitted file, again after r23 (whose
# build/autotune predated AT_CAP_MODULE_STATE, so the convolution's
# file carried its cubin beside a __constant__ filter it would not
# see): Kernel Tuner's examples whose harness checks the emitted .cu's
# answers (convolution: constant memory, nvcc's build; pnpoly,
# stencil: the cubin), the spec crosscheck, one .cu for several sizes
# (no cubin), and two more transposes as emitted, from source and in
# the bench. Carry build/autotune. About 6 minutes.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r24; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
KT_ONLY="convolution pnpoly stencil" KT_FLAGS="--budget 40 --strategy random" \
  timeout 200 bash tests/gpu/kt_examples.sh > "$O/kt.tap" 2>&1
timeout 90 sh tests/gpu/crosscheck_spec.sh > "$O/xcs.txt" 2>&1
timeout 90 sh tests/gpu/multi_size.sh > "$O/multi.tap" 2>&1
XC_SOURCE=1 timeout 170 sh tests/gpu/crosscheck.sh 8192 8192 \
  bf16:49063x1855 > "$O/xc.txt" 2>&1
grep -E "^(ok|not ok)|^# [a-z]" "$O/kt.tap" | cut -c1-200
grep -E "==|tuner|nvcc program" "$O/xcs.txt" | cut -c1-200
grep -E "^(ok|not ok)" "$O/multi.tap" | cut -c1-160
grep -E "emitted|crosscheck|source:|autotune bench" "$O/xc.txt" | cut -c1-240
