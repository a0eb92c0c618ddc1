#!/bin/bash
# Every point's time under both layouts: a recorded cold tune (--record,
# every evaluation) of each problem by the build before the layout
# (gpurun/banks/autotune-old) and by this one, back to back, twice. Points
# whose layout did not change time the same kernel in both: their ratio is
# the noise the changed ones are read against.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/abr; mkdir -p $W/rec && chmod 700 $W
export HOME=$W
P="u8 154 2172284
i8 1298299 153
i8 19194 22735
u8 26284 8492
f16 579 380071"
for round in 1 2; do
echo "$P" | while read -r t r c; do
  for side in old new; do
    B=$PWD/build/autotune; [ $side = old ] && B=$PWD/gpurun/banks/autotune-old
    s0=$SECONDS
    AUTOTUNE_WORKER=$B AUTOTUNE_CACHE=$W/$side-$round.db timeout 150 $B transpose --arch auto \
      --type $t --rows $r --cols $c --record $W/rec/rec-$round-$side-$t-${r}x$c.csv \
      -o $W/x.cu > $W/x.log 2>&1
    echo "$round $t ${r}x$c $side rc=$? $((SECONDS - s0))s $(grep -o 'tile[^ ]*\|[0-9.]*% of [a-z]*' $W/x.log | head -3 | tr '\n' ' ')"
  done
done
done
tar czf $OUT/rec.tgz -C $W rec
echo END
