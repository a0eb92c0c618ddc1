#!/bin/bash
# Packed tiles' extra rows a word a row (next/bytes_words.patch and
# next/pack2_words.patch with their shared word load folded into
# at_word_at; transpose abi 13). r88's other call (bytes.sh ab, same
# lease) measured the bytes patch alone against HEAD: +2.98 points of
# the copy over 10 drawn 1-byte problems, +0.6 to +5.0.
#   at-head = 67a049c as committed; at-w2 = both words patches.
# (1) gpu_variants built with both on every 1-byte point, every 2nd
# 2-byte point (no other size has packed tiles); (2) compute-sanitizer memcheck
# and racecheck on a sample of the skewed 1- and 2-byte points; (3) the
# nvcc crosscheck of a skewed u8 and a skewed f16 problem (at-w2);
# (4) 2-byte transposes of 64 to 192 MiB drawn here, output rows off the
# sectors, each tuned cold by the two builds in turn, as long as the
# call allows. Carry build/at-head, build/at-w2,
# build/tests/gpu_variants-rel and build/tests/lib; from the repository
# root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r88; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/at-w2
AT_GPU_TESTS='every_point_1_byte*' timeout 110 \
    build/tests/gpu_variants-rel > "$O/variants-1.txt" 2>&1
echo "== variants 1-byte rc=$? $SECONDS s: $(grep -cE '^ok' "$O/variants-1.txt") ok, $(grep -cE '^not ok' "$O/variants-1.txt") not ok"
AT_GPU_SAMPLE=2 AT_GPU_TESTS='every_point_2_bytes*' timeout 90 \
    build/tests/gpu_variants-rel > "$O/variants-2.txt" 2>&1
echo "== variants 2-byte rc=$? $SECONDS s: $(grep -cE '^ok' "$O/variants-2.txt") ok, $(grep -cE '^not ok' "$O/variants-2.txt") not ok"
grep -hE "^not ok|wrong" "$O"/variants*.txt | head -10
AT_GPU_SAMPLE=20 AT_GPU_TESTS='every_point_*_rows_off_sectors' timeout 120 \
    sh tests/gpu/sanitize.sh gpu_variants > "$O/sanitize.txt" 2>&1
echo "== sanitize rc=$? $SECONDS s"; grep -E "^(not )?ok|SUMMARY" "$O/sanitize.txt" | cut -c1-160
cp build/at-w2 build/autotune
timeout 80 sh tests/gpu/crosscheck.sh u8:2878x45717 f16:6131x9000 \
    > "$O/crosscheck.txt" 2>&1
echo "== crosscheck rc=$? $SECONDS s"
grep -E "^crosscheck|^autotune bench: [0-9]" "$O/crosscheck.txt" | cut -c1-160
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "== seed $S"
python3 - "$S" > "$O/problems.txt" <<'PY'
import math, random, sys
r = random.Random(int(sys.argv[1]))
for _ in range(10):
    t = r.choice(["f16", "bf16"])
    n = int(r.uniform(64, 192) * 2**20) // 2
    aspect = math.exp(r.uniform(math.log(1 / 64), math.log(64)))
    rows = max(256, int(math.sqrt(n / aspect)))
    cols = max(256, n // rows)
    while rows * 2 % 32 == 0:  # output rows off the sectors
        rows += 1
    ld_in = cols + (r.randint(1, 40) if r.random() < 1 / 3 else 0)
    print(t, rows, cols, ld_in, rows)
PY
cat "$O/problems.txt"
bash docs/perf/issue36-h200/tools/ab_tunes.sh "$O/problems.txt" \
    $((580 - SECONDS)) "$W" at-head at-w2
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*.csv b-*.log)
python3 docs/perf/issue36-h200/tools/ab_table.py "$W" at-head at-w2
