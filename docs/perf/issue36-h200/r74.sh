#!/bin/bash
# Gathered strips as committed (529e04d) against the build before this
# session (build/at-old, 436e9ea), on problems drawn here, not chosen: 7
# transposes of short input rows (a type of 1 or 2 bytes, 8 to 64 rows,
# 64 to 256 MiB a side, output runs end to end, the input's ld dense or
# padded, half of them batches of dense matrices, whose output matrices
# then start off 16 bytes unless rows x cols x bytes says otherwise), the
# seed from /dev/urandom; each tuned cold by both builds, alternated.
# Carry build/autotune and build/at-old; from the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r74; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "== seed $S"
python3 - "$S" > "$O/problems.txt" <<'PY'
import random, sys
r = random.Random(int(sys.argv[1]))
for _ in range(7):
    t = r.choice(["i8", "u8", "f16", "bf16"])
    e = 1 if t in ("i8", "u8") else 2
    rows = r.randint(8, 64)
    batch = 1 if r.random() < 0.5 else r.randint(2, 24)
    mib = r.uniform(64, 256)
    cols = int(mib * 2**20 / (rows * e * batch))
    ld_in = cols + (r.choice([0, 0, r.randint(1, 64)]))
    print(t, rows, cols, ld_in, batch)
PY
cat "$O/problems.txt"
while read -r t rows cols li n; do
    for b in at-old autotune; do
        left=$((560 - SECONDS)); [ "$left" -gt 20 ] || break 2
        f=$W/b-$b-$t-${rows}x$cols-$li-$n
        AUTOTUNE_WORKER=$PWD/build/$b AUTOTUNE_CACHE=$W/c-$b.db timeout "$left" build/$b \
            bench transpose --type "$t" --rows "$rows" --cols "$cols" --ld-in "$li" \
            --batch "$n" --quiet --csv "$f.csv" > "$f.log" 2>&1
        echo "== $b $t ${rows}x$cols ld_in $li batch $n rc=$? $SECONDS s: $(grep '^\[1/1\]' "$f.log" | sed 's/^.*: //' | cut -c1-110)"
    done
done < "$O/problems.txt"
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*)
