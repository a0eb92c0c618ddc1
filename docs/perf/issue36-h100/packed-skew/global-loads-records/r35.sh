#!/bin/bash
# Shifted loads through pointer arithmetic (global loads, in place of
# generic ones): i8 8192x8192 ld_in 8193 tuned cold with --record by HEAD
# and by that build, alternated twice, so each point's time can be set
# beside its own in the other build (a mis-pick or a loss?).
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W
for rep in 1 2; do
  for n in head glob; do
    b=$PWD/build/autotune; [ $n = glob ] && b=$PWD/gpurun/autotune-glob
    rm -f $W/*.db*
    AUTOTUNE_WORKER=$b AUTOTUNE_CACHE=$W/c.db AUTOTUNE_CUBIN_CACHE=$W/cub.db timeout 70 $b transpose --arch auto --type i8 --rows 8192 --cols 8192 --ld-in 8193 -o $W/t.cu --quiet --record $OUT/rec-$n-$rep.csv > $W/tune-$n-$rep.txt 2>&1
    AUTOTUNE_WORKER=$b AUTOTUNE_CACHE=$W/c.db AUTOTUNE_CUBIN_CACHE=$W/cub.db timeout 40 $b bench transpose --type i8 --rows 8192 --cols 8192 --ld-in 8193 > $W/$n-$rep.txt 2>&1
    echo "$n $rep rc=$?: $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $W/$n-$rep.txt | head -1 | cut -c1-200)"
  done
done
gzip -9 $OUT/*.csv
echo END
