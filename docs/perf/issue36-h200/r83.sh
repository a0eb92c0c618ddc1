#!/bin/bash
# The merged change (54490d9: a skewed tile's extra rows loaded all at
# once) on problems drawn here, not chosen: 2-byte-heavy transposes of 64
# to 192 MiB whose output rows are off the 32-byte sectors (so their
# tiles skew), any aspect from 1:64 to 64:1, a third with a padded
# ld_in; the seed from /dev/urandom. Each tuned cold by the build before
# (build/at-old, f5be202) and this one, alternated. Carry build/autotune
# and build/at-old; from the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r83; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "== seed $S"
python3 - "$S" > "$O/problems.txt" <<'PY'
import math, random, sys
r = random.Random(int(sys.argv[1]))
size = {"u8": 1, "i8": 1, "f16": 2, "bf16": 2, "f32": 4, "f64": 8}
for _ in range(8):
    t = r.choice(["f16", "bf16", "f16", "bf16", "u8", "i8", "f32", "f64"])
    e = size[t]
    n = int(r.uniform(64, 192) * 2**20 / e)
    aspect = math.exp(r.uniform(math.log(1 / 64), math.log(64)))
    rows = max(128, int(math.sqrt(n / aspect)))
    cols = max(128, n // rows)
    sector = 32 // e
    while rows % sector == 0:  # output rows (ld_out = rows) off the sectors
        rows += 1
    ld_in = cols + (r.randint(1, 40) if r.random() < 1 / 3 else 0)
    print(t, rows, cols, ld_in, rows)
PY
cat "$O/problems.txt"
while read -r t rows cols li lo; do
    for b in at-old autotune; do
        left=$((250 - SECONDS)); [ "$left" -gt 20 ] || break 2
        f=$W/b-$b-$t-${rows}x$cols
        AUTOTUNE_WORKER=$PWD/build/$b AUTOTUNE_CACHE=$W/c-$b.db timeout "$left" build/$b \
            bench transpose --type "$t" --rows "$rows" --cols "$cols" --ld-in "$li" \
            --ld-out "$lo" --quiet --csv "$f.csv" > "$f.log" 2>&1
        echo "== $b $t ${rows}x$cols ld $li $lo rc=$? $SECONDS s: $(grep '^\[1/1\]' "$f.log" | sed 's/^.*: //' | cut -c1-120)"
    done
done < "$O/problems.txt"
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*)
