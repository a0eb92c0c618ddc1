#!/bin/bash
# The 1-byte question of r83 (a draft of this script was next/bytes.sh),
# with a third build:
#   at-head  = 0b4ea7b as committed (steps of at_put_extra all at once);
#   at-bytes = at-head + r84/bytes_old_loop.patch (1-byte packed tiles
#              take the old loop, a step a turn);
#   at-guard = at-head + r84/guard.patch (at_put_extra's loads guarded
#              as its stores are: AT_XN % AT_THREADS == 0 folds the
#              test away).
# (1) gpu_variants built with at-guard's template on every 3rd point of
# every size (skewed tiles' extra rows, packed and unpacked); (2) 1-byte
# transposes of 64 to 192 MiB drawn here, output rows off the sectors,
# each tuned cold by the three builds in turn. Carry build/at-*,
# build/tests/gpu_variants-rel and build/tests/lib; from the repository
# root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r84; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/at-guard
AT_GPU_SAMPLE=3 AT_GPU_TESTS='every_point_*' timeout 120 \
    build/tests/gpu_variants-rel > "$O/variants.txt" 2>&1
echo "== variants rc=$? $SECONDS s: $(grep -cE '^ok' "$O/variants.txt") ok, $(grep -cE '^not ok' "$O/variants.txt") not ok"
grep -E "^(not )?ok|failed|wrong" "$O/variants.txt" | head -10
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "== seed $S"
python3 - "$S" > "$O/problems.txt" <<'PY'
import math, random, sys
r = random.Random(int(sys.argv[1]))
for _ in range(10):
    t = r.choice(["u8", "i8"])
    n = int(r.uniform(64, 192) * 2**20)
    aspect = math.exp(r.uniform(math.log(1 / 64), math.log(64)))
    rows = max(256, int(math.sqrt(n / aspect)))
    cols = max(256, n // rows)
    while rows % 32 == 0:  # output rows (ld_out = rows) off the sectors
        rows += 1
    ld_in = cols + (r.randint(1, 40) if r.random() < 1 / 3 else 0)
    print(t, rows, cols, ld_in, rows)
PY
cat "$O/problems.txt"
while read -r t rows cols li lo; do
    for b in at-head at-bytes at-guard; do
        left=$((565 - SECONDS)); [ "$left" -gt 20 ] || break 2
        f=$W/b-$b-$t-${rows}x$cols
        AUTOTUNE_WORKER=$PWD/build/$b AUTOTUNE_CACHE=$f.db timeout "$left" build/$b \
            bench transpose --type "$t" --rows "$rows" --cols "$cols" --ld-in "$li" \
            --ld-out "$lo" --quiet --csv "$f.csv" > "$f.log" 2>&1
        echo "== $b $t ${rows}x$cols ld $li $lo rc=$? $SECONDS s: $(grep '^\[1/1\]' "$f.log" | sed 's/^.*: //' | cut -c1-120)"
    done
done < "$O/problems.txt"
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*.csv b-*.log)
