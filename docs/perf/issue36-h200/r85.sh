#!/bin/bash
# The change after r84: 1-byte packed tiles' extra rows a step a loop
# turn again (r84/bytes_old_loop.patch), the other skewed tiles' loads
# guarded as their stores are (AT_X_IN); transpose abi 12.
#   at-head = 0b4ea7b as committed; at-new = the change.
# (1) gpu_variants built with the change on every 3rd point of every
# size; (2) compute-sanitizer memcheck and racecheck on a sample of the
# skewed 1- and 2-byte points; (3) 2- to 8-byte transposes of 64 to 192
# MiB drawn here, output rows off the sectors (the guard's), each tuned
# cold by the two builds in turn. Carry build/at-head, build/at-new,
# build/tests/gpu_variants-rel and build/tests/lib; from the repository
# root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r85; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/at-new
AT_GPU_SAMPLE=3 AT_GPU_TESTS='every_point_*' timeout 120 \
    build/tests/gpu_variants-rel > "$O/variants.txt" 2>&1
echo "== variants rc=$? $SECONDS s: $(grep -cE '^ok' "$O/variants.txt") ok, $(grep -cE '^not ok' "$O/variants.txt") not ok"
grep -E "^(not )?ok|wrong" "$O/variants.txt" | head -10
AT_GPU_TESTS='every_point_*_rows_off_sectors' timeout 150 \
    sh tests/gpu/sanitize.sh gpu_variants > "$O/sanitize.txt" 2>&1
echo "== sanitize rc=$? $SECONDS s"; grep -E "^(not )?ok|SUMMARY" "$O/sanitize.txt" | cut -c1-160
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "== seed $S"
python3 - "$S" > "$O/problems.txt" <<'PY'
import math, random, sys
r = random.Random(int(sys.argv[1]))
size = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8}
for _ in range(10):
    t = r.choice(["f16", "bf16", "f16", "bf16", "f32", "f64"])
    n = int(r.uniform(64, 192) * 2**20) // size[t]
    aspect = math.exp(r.uniform(math.log(1 / 64), math.log(64)))
    rows = max(256, int(math.sqrt(n / aspect)))
    cols = max(256, n // rows)
    while rows * size[t] % 32 == 0:  # output rows off the sectors
        rows += 1
    ld_in = cols + (r.randint(1, 40) if r.random() < 1 / 3 else 0)
    print(t, rows, cols, ld_in, rows)
PY
cat "$O/problems.txt"
while read -r t rows cols li lo; do
    for b in at-head at-new; do
        left=$((565 - SECONDS)); [ "$left" -gt 20 ] || break 2
        f=$W/b-$b-$t-${rows}x$cols
        AUTOTUNE_WORKER=$PWD/build/$b AUTOTUNE_CACHE=$f.db timeout "$left" build/$b \
            bench transpose --type "$t" --rows "$rows" --cols "$cols" --ld-in "$li" \
            --ld-out "$lo" --quiet --csv "$f.csv" > "$f.log" 2>&1
        echo "== $b $t ${rows}x$cols ld $li $lo rc=$? $SECONDS s: $(grep '^\[1/1\]' "$f.log" | sed 's/^.*: //' | cut -c1-120)"
    done
done < "$O/problems.txt"
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*.csv b-*.log)
