#!/bin/bash
# Item 1, gathered strips on problems drawn here, not chosen: 8 transposes
# of short input rows (a type of 1 or 2 bytes, 8 to 64 rows, 64 to 256
# MiB, output runs end to end or 1 to 15 elements apart, the input's ld
# dense or padded), the seed from /dev/urandom; each by the build before
# gathered strips (build/at-old, 166d4a0) and by this one. Then
# compute-sanitizer memcheck on a 2-byte gathered winner in the nvcc
# crosscheck program. Carry build/autotune and build/at-old; from the
# repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r67; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "== seed $S"
python3 - "$S" > "$O/problems.txt" <<'PY'
import random, sys
r = random.Random(int(sys.argv[1]))
for _ in range(8):
    t = r.choice(["i8", "u8", "f16", "bf16"])
    e = 1 if t in ("i8", "u8") else 2
    rows = r.randint(8, 64)
    mib = r.uniform(64, 256)
    cols = int(mib * 2**20 / (rows * e))
    ld_in = cols + (r.choice([0, 0, r.randint(1, 64)]))
    ld_out = rows + (0 if r.random() < 0.75 else r.randint(1, 15))
    print(t, rows, cols, ld_in, ld_out)
PY
cat "$O/problems.txt"
while read -r t rows cols li lo; do
    for b in at-old autotune; do
        left=$((480 - SECONDS)); [ "$left" -gt 20 ] || break 2
        f=$W/b-$b-$t-${rows}x$cols-$li-$lo
        AUTOTUNE_WORKER=$PWD/build/$b AUTOTUNE_CACHE=$W/c-$b.db timeout "$left" build/$b \
            bench transpose --type "$t" --rows "$rows" --cols "$cols" --ld-in "$li" \
            --ld-out "$lo" --quiet --csv "$f.csv" > "$f.log" 2>&1
        echo "== $b $t ${rows}x$cols ld $li/$lo rc=$? $SECONDS s: $(grep '^\[1/1\]' "$f.log" | sed 's/^.*: //' | cut -c1-110)"
    done
done < "$O/problems.txt"
export AUTOTUNE_WORKER=$PWD/build/autotune
left=$((590 - SECONDS))
[ "$left" -gt 15 ] && XC_RUN="compute-sanitizer --tool memcheck" timeout "$left" \
    sh tests/gpu/crosscheck.sh f16:31x300007 > "$O/memcheck.txt" 2>&1
echo "== memcheck rc=$? $SECONDS s"; grep -E "ERROR SUMMARY|emitted point|wrong" "$O/memcheck.txt" | head -4
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*)
