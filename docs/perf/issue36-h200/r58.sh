#!/bin/bash
# Item 2: column strips of 16-bit min, max and amax combining two columns
# a word (AT_COL_PAIRS, templates/reduce.cu; r57 showed f16's winners
# issuing twice as often as f32's). gpu_reduce verifies them down columns
# bit for bit first (every point of f16 max, bf16 amax and bf16 min on
# its shapes, sampled by 2), then r55's f16 max tunes and two 2-byte
# misses of sweep 527326684 again. Carry build/autotune,
# build/tests/gpu_reduce-rel and build/tests/lib. (The change it
# measured gained nothing and was taken out; r58/col-pairs.patch has it.)
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r58; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
AT_GPU_DOWN=1 AT_GPU_SAMPLE=2 AT_GPU_ONLY='reduce_f16_max,reduce_bf16_amax,reduce_bf16_min' \
    timeout 220 build/tests/gpu_reduce-rel > "$O/gpu_reduce-down.tap" 2>&1
echo "== gpu_reduce down rc=$? $SECONDS s"
grep -E '^(not )?ok|failed|FAIL|wrong' "$O/gpu_reduce-down.tap" | cut -c1-200 | head -20
for pr in "f16 max 8410 4251 4251" "f16 max 33640 4251 4251" "bf16 min 41601 1040 1040" \
          "f16 min 64887 7974 7974"; do
    set -- $pr
    AUTOTUNE_CACHE=$W/c.db timeout 60 build/autotune reduce --type "$1" --op "$2" --axis rows \
        --rows "$3" --cols "$4" --ld "$5" --record "$O/rec-$1-$2-$3x$4.csv" \
        -o "$W/k.cu" > "$W/rec-$1-$2-$3x$4.log" 2>&1
    echo "== $pr rc=$? $SECONDS s"; grep -A1 "^  best:" "$W/rec-$1-$2-$3x$4.log" | cut -c1-200
done
