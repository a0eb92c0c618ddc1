#!/bin/bash
# Cold tunes, the build before the layout (HEAD a59b324, carried as
# gpurun/banks/autotune-old) against this one, back to back on each
# problem: the 1- and 2-byte problems of 64 MiB or more of the sweep at
# seed 2587415797 (drawn, not chosen) and the two winners of run1.sh.
# `autotune bench` as a user runs it, each build with its own cache.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/abh; mkdir -p $W && chmod 700 $W
export HOME=$W
P="i8 19194 22735 22735 19194 1
f16 579 380071 380071 579 1
u8 100636 7554 7554 100636 1
i8 1298299 153 153 1298299 1
u8 154 2172284 2172284 154 1
u8 3940 181149 181149 3940 1
bf16 802670 607 607 802670 1
i8 19168 31315 31315 19168 1
u8 10938 13536 13551 10960 1
u8 26284 8492 8492 26284 1
i8 2221128 354 354 2221128 1
bf16 941580 120 153 941618 1
f16 264 703109 703109 264 1
bf16 497 665711 665711 497 1"
echo "$P" | while read -r t r c li lo b; do
  for side in old new; do
    B=$PWD/build/autotune; [ $side = old ] && B=$PWD/gpurun/banks/autotune-old
    s0=$SECONDS; rm -f $W/x.csv
    AUTOTUNE_WORKER=$B AUTOTUNE_CACHE=$W/$side.db timeout 120 $B bench transpose --type $t \
      --rows $r --cols $c --ld-in $li --ld-out $lo --batch $b --csv $W/x.csv > $W/x.log 2>&1
    rc=$?
    pt=$(sed -n 's/^\[1\/1\] [^:]*: \([^ ]*\) .*/\1/p' $W/x.log | head -1)
    fr=$(awk -F, '$11=="tuned"{printf "%.1f", $14*100}' $W/x.csv 2>/dev/null)
    cb=$(awk -F, '$11=="cublas"{printf "%.1f", $14*100}' $W/x.csv 2>/dev/null)
    echo "$t ${r}x$c ld $li/$lo $side rc=$rc $((SECONDS - s0))s tuned $fr% cublas $cb% $pt"
    cat $W/x.csv >> $OUT/ab-$side.csv 2>/dev/null
    [ $rc = 0 ] || tail -5 $W/x.log
  done
done
echo END
