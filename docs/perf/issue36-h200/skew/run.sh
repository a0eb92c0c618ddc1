#!/bin/bash
# The skewed strips of skew-strips.patch (README.md here) on a GPU: first
# gpu_reduce verifies them down columns bit for bit (its wide odd shape,
# 1031x1500 ld 1501, runs every skewed point; f16 max, bf16 sum and f16
# amax, every second point), then the 2-byte odd-ld problems of r55, r57
# and r59 tuned again with every point recorded. Apply the patch, build
# build/autotune and build/tests/gpu_reduce-rel here, carry them and
# build/tests/lib; run from the repository root. One call, about 300 s.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/skew; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
AT_GPU_DOWN=1 AT_GPU_SAMPLE=2 AT_GPU_ONLY='reduce_f16_max,reduce_bf16_sum,reduce_f16_amax' \
    timeout 240 build/tests/gpu_reduce-rel > "$O/gpu_reduce-down.tap" 2>&1
echo "== gpu_reduce down rc=$? $SECONDS s"
grep -E '^(not )?ok|failed|wrong' "$O/gpu_reduce-down.tap" | cut -c1-200 | head -20
for pr in "f16 max 8410 4251" "f16 sum 8410 4251" "f16 sumsq 13803 5047" "f16 max 33640 4251"; do
    set -- $pr
    AUTOTUNE_CACHE=$W/c.db timeout 60 build/autotune reduce --type "$1" --op "$2" --axis rows \
        --rows "$3" --cols "$4" --record "$W/rec-$1-$2-$3x$4.csv" \
        -o "$W/k.cu" > "$W/rec-$1-$2-$3x$4.log" 2>&1
    echo "== $pr rc=$? $SECONDS s"; grep -A1 "^  best:" "$W/rec-$1-$2-$3x$4.log" | cut -c1-200
    # the best skewed point (vec2 on an odd ld is skewed) and the best of the rest
    awk -F, '$8=="ok" && index($5, "_vec2_")' "$W/rec-$1-$2-$3x$4.csv" |
        sort -t, -k9,9g | head -1 | cut -d, -f5,9,13
    awk -F, 'NR > 1 && $8=="ok" && !index($5, "_vec2_")' "$W/rec-$1-$2-$3x$4.csv" |
        sort -t, -k9,9g | head -1 | cut -d, -f5,9,13
done
(cd "$W" && tar -cJf "$O/records.tar.xz" rec-*.csv rec-*.log)
