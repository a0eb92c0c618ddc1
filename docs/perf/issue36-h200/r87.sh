#!/bin/bash
# Skewed stores on 16-byte boundaries instead of 32-byte sectors (an
# experiment: r87/skew16.patch). A skewed tile reads a sector's rows
# past its own (1-byte packed tiles 32 rows, 2-byte packed 16, unpacked
# f16 15); on 16 bytes it reads half of them, and an output sector at a
# tile's boundary is written half by each of two tiles (r10 measured 64
# and 128: only the extra rows' loads grew).
#   at-new   = a01c157 as committed; at-skew16 = the same, on 16 bytes.
# (1) gpu_variants built with skew16 on every 5th point of every size;
# (2) two fixed problems and 1- and 2-byte transposes of 64 to 192 MiB
# drawn here, output rows off the 16 bytes, each tuned cold by the two
# builds in turn. Carry build/at-new, build/at-skew16,
# build/tests/gpu_variants-rel and build/tests/lib; from the repository
# root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r87; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/at-skew16
AT_GPU_SAMPLE=5 AT_GPU_TESTS='every_point_*' timeout 90 \
    build/tests/gpu_variants-rel > "$O/variants.txt" 2>&1
echo "== variants rc=$? $SECONDS s: $(grep -cE '^ok' "$O/variants.txt") ok, $(grep -cE '^not ok' "$O/variants.txt") not ok"
grep -E "^not ok|wrong" "$O/variants.txt" | head -10
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "== seed $S"
{
    echo "f16 2777 107528 107528 2777"
    echo "u8 2341 52855 52885 2345"
    python3 - "$S" <<'PY'
import math, random, sys
r = random.Random(int(sys.argv[1]))
size = {"u8": 1, "i8": 1, "f16": 2, "bf16": 2}
for _ in range(8):
    t = r.choice(["u8", "i8", "f16", "bf16"])
    n = int(r.uniform(64, 192) * 2**20) // size[t]
    aspect = math.exp(r.uniform(math.log(1 / 64), math.log(64)))
    rows = max(256, int(math.sqrt(n / aspect)))
    cols = max(256, n // rows)
    while rows * size[t] % 16 == 0:  # output rows off the 16 bytes
        rows += 1
    ld_in = cols + (r.randint(1, 40) if r.random() < 1 / 3 else 0)
    print(t, rows, cols, ld_in, rows)
PY
} > "$O/problems.txt"
cat "$O/problems.txt"
while read -r t rows cols li lo; do
    for b in at-new at-skew16; do
        left=$((405 - SECONDS)); [ "$left" -gt 20 ] || break 2
        f=$W/b-$b-$t-${rows}x$cols
        AUTOTUNE_WORKER=$PWD/build/$b AUTOTUNE_CACHE=$f.db timeout "$left" build/$b \
            bench transpose --type "$t" --rows "$rows" --cols "$cols" --ld-in "$li" \
            --ld-out "$lo" --quiet --csv "$f.csv" > "$f.log" 2>&1
        echo "== $b $t ${rows}x$cols ld $li $lo rc=$? $SECONDS s: $(grep '^\[1/1\]' "$f.log" | sed 's/^.*: //' | cut -c1-120)"
    done
done < "$O/problems.txt"
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*.csv b-*.log)
