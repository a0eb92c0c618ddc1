#!/bin/bash
# For the next session (not run yet): three patches for skewed tiles,
# two for bytes and one for 2-byte elements, prepared on the build
# machine with no device time left to run them:
#   skew16_bytes.patch  bytes skew on 16 bytes (half the extra rows;
#                       r87 measured these 1-byte kernels: five drawn
#                       problems -0.5 to +3.2 points, mean +1.6), the
#                       whole-tile checks of bytes with output rows 24
#                       bytes past 16, transpose abi 13;
#   bytes_words.patch   the extra rows of packed bytes loaded a word a
#                       row (four rows' words transposed in registers)
#                       instead of a byte an element (a quarter of the
#                       loads where rows are on the word, half where
#                       they are off it); not measured;
#   pack2_words.patch   the same for packed 2-byte tiles (half the
#                       loads); not measured.
# Build (from a clean tree at the commit that added this file):
#   make build/autotune && cp build/autotune build/at-head &&
#   git apply docs/perf/issue36-h200/next/skew16_bytes.patch &&
#   make build/autotune && cp build/autotune build/at-skew16 &&
#   git apply docs/perf/issue36-h200/next/bytes_words.patch &&
#   make build/autotune build/tests/gpu_variants-rel &&
#   cp build/autotune build/at-both &&
#   git checkout gen templates tests &&
#   git apply docs/perf/issue36-h200/next/bytes_words.patch &&
#   make build/autotune && cp build/autotune build/at-words &&
#   git checkout gen templates tests &&
#   git apply docs/perf/issue36-h200/next/pack2_words.patch &&
#   make build/autotune && cp build/autotune build/at-p2
# then carry build/at-head, build/at-words, build/at-skew16,
# build/at-both, build/at-p2, build/tests/gpu_variants-rel and
# build/tests/lib (gpu_variants built with the two bytes patches: verify
# whichever other build wins the same way before landing it, the 2-byte
# one with AT_GPU_TESTS='every_point_2_bytes*').
# `bash bytes.sh verify` (about 300 s), with both patches: gpu_variants
# on every 1-byte point and every 4th of the rest; memcheck and
# racecheck on the skewed bytes; the nvcc crosscheck of a skewed problem
# and of a whole one that skews (ld_out 8 bytes past 16).
# `bash bytes.sh ab` (about 560 s): 1-byte transposes drawn here, output
# rows off 16 bytes (every third on 16 and off 32: skewed before the
# patches, not after), each tuned cold by the four builds in turn (words
# alone too: with cheap extra rows, sectors whole may win again; r87's
# 2-byte tiles, whose extra rows are vectors, lost on 16 bytes).
# `bash bytes.sh ab2` (about 560 s): 2-byte transposes drawn here,
# output rows off the sectors, each tuned cold by at-head and at-p2.
# From the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/bytes; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/at-both
if [ "${1:-}" = verify ]; then
    AT_GPU_TESTS='every_point_1_byte*' timeout 120 \
        build/tests/gpu_variants-rel > "$O/variants-1.txt" 2>&1
    echo "== variants 1-byte rc=$? $SECONDS s: $(grep -cE '^ok' "$O/variants-1.txt") ok, $(grep -cE '^not ok' "$O/variants-1.txt") not ok"
    AT_GPU_SAMPLE=4 AT_GPU_TESTS='every_point_[2-9]*' timeout 90 \
        build/tests/gpu_variants-rel > "$O/variants.txt" 2>&1
    echo "== variants rc=$? $SECONDS s: $(grep -cE '^ok' "$O/variants.txt") ok, $(grep -cE '^not ok' "$O/variants.txt") not ok"
    AT_GPU_TESTS='every_point_1_byte_rows_off_sectors' timeout 90 \
        sh tests/gpu/sanitize.sh gpu_variants > "$O/sanitize.txt" 2>&1
    echo "== sanitize rc=$? $SECONDS s"; grep -E "^(not )?ok|SUMMARY" "$O/sanitize.txt"
    cp build/at-both build/autotune
    timeout 90 sh tests/gpu/crosscheck.sh u8:2878x45717 u8:8192x8192:8192:8200 \
        > "$O/crosscheck.txt" 2>&1
    echo "== crosscheck rc=$? $SECONDS s"
    grep -E "^crosscheck|^autotune bench: [0-9]" "$O/crosscheck.txt" | cut -c1-160
    exit 0
fi
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "== seed $S"
python3 - "$S" "${1:-ab}" > "$O/problems.txt" <<'PY'
import math, random, sys
r = random.Random(int(sys.argv[1]))
two = sys.argv[2] == "ab2"
for k in range(10):
    t = r.choice(["f16", "bf16"] if two else ["u8", "i8"])
    e = 2 if two else 1
    n = int(r.uniform(64, 192) * 2**20) // e
    aspect = math.exp(r.uniform(math.log(1 / 64), math.log(64)))
    rows = max(256, int(math.sqrt(n / aspect)))
    cols = max(256, n // rows)
    on16 = not two and k % 3 == 2  # on 16 bytes and off 32
    while (rows % 32 != 16) if on16 else (rows * e % (32 if two else 16) == 0):
        rows += 1
    ld_in = cols + (r.randint(1, 40) if r.random() < 1 / 3 else 0)
    print(t, rows, cols, ld_in, rows)
PY
cat "$O/problems.txt"
if [ "${1:-ab}" = ab2 ]; then set -- at-head at-p2
else set -- at-head at-words at-skew16 at-both; fi
bash docs/perf/issue36-h200/tools/ab_tunes.sh "$O/problems.txt" \
    $((565 - SECONDS)) "$W" "$@"
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*.csv b-*.log)
python3 docs/perf/issue36-h200/tools/ab_table.py "$W" "$@"
