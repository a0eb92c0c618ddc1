#!/bin/bash
# Gathered strips with one buffer less (AT_GBUF: a tile's staged output
# where its rows were, once read; 4 blocks an SM of 31 rows become 6):
# the points emitted before (g-before-*) and after (g-after-*), each in
# r71/gather_grid.cu, alternated twice, every launch checked against the
# CPU. No carry; from the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r72; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
cd docs/perf/issue36-h200/r71 || exit 1
# the emitted points (GENERATED files) are kept packed
tar -xJf emitted.tar.xz -C "$W" || exit 1
for f in "$W"/g-*.cu; do
    f=$(basename "$f")
    nvcc -O2 -arch=native -I"$W" -DGATHERED="\"$f\"" gather_grid.cu -o "$W/${f%.cu}" &
done
wait
echo "== built $SECONDS s"
for k in "u8-31 3552786" "u8-13 19022487" "i8-16 8000001" "f16-31 1776393" "u8-62 2000003"; do
    set -- $k
    for round in 1 2; do
        for b in before after; do
            "$W/g-$b-$1" "$2" > "$W/$b-$1-$round.txt" 2>&1
            echo "== $b $1 round $round: $(grep -E 'blocks an SM' "$W/$b-$1-$round.txt" | sed 's/.*: //')"
            grep -E "^grid" "$W/$b-$1-$round.txt"
        done
    done
done
(cd "$W" && tar -cJf "$O/r72.tar.xz" ./*.txt)
