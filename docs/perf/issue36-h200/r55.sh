#!/bin/bash
# Item 2: the vec2 shifted strips (reduce abi 9, two 2-byte elements a
# 4-byte load realigned by a funnel shift) on a GPU for the first time.
# First gpu_reduce verifies them bit for bit down columns (WIDE_ODD, ld
# 1501, runs every shifted strip) and on inputs off their vectors; then
# r54's and r53's 2-byte down-column records again, to see whether the
# new points beat 74.5% of the copy. Carry build/autotune,
# build/tests/gpu_reduce-rel and build/tests/lib.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r55; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
AT_GPU_DOWN=1 AT_GPU_ONLY='reduce_f16_max,reduce_bf16_sum' timeout 200 \
    build/tests/gpu_reduce-rel > "$O/gpu_reduce-down.tap" 2>&1
echo "== gpu_reduce down rc=$? $SECONDS s"; grep -E '^(not )?ok|failed|points' "$O/gpu_reduce-down.tap" | cut -c1-200
AT_GPU_ONLY='reduce_any_input_f16,reduce_any_input_bf16' timeout 120 \
    build/tests/gpu_reduce-rel > "$O/gpu_reduce-any.tap" 2>&1
echo "== gpu_reduce any rc=$? $SECONDS s"; grep -E '^(not )?ok|failed' "$O/gpu_reduce-any.tap" | cut -c1-200
for pr in "f16 max 8410 4251 4251" "f16 max 33640 4251 4251" "f16 sumsq 13803 5047 5047" \
          "bf16 max 21663 5288 5310" "f32 max 8410 2125 2125"; do
    set -- $pr
    AUTOTUNE_CACHE=$W/c.db timeout 60 build/autotune reduce --type "$1" --op "$2" --axis rows \
        --rows "$3" --cols "$4" --ld "$5" --record "$O/rec-$1-$2-$3x$4.csv" \
        -o "$W/k.cu" > "$O/rec-$1-$2-$3x$4.log" 2>&1
    echo "== $pr rc=$? $SECONDS s"; grep -A1 "^  best:" "$O/rec-$1-$2-$3x$4.log" | cut -c1-200
    # the best shifted vec2 strip (its name says vec2 and the shift is in the source; the record's params say)
    grep -E '_vec2_' "$O/rec-$1-$2-$3x$4.csv" | sort -t, -k9,9g | head -2 | cut -d, -f5,9,13
done
