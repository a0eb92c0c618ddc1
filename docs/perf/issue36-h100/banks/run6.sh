#!/bin/bash
# Is the 1-byte miss the row pitch? Cold tunes (`autotune bench`) of u8
# 16384x16384 at its own pitch and at i8 19194x22735's aligned one
# (22736/19200), and of i8 19194x22735 at pitches of powers of two and
# in between; the footprint copy at the winner's tile beside each.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O2 -arch=native -Itests/gpu -o /tmp/fp docs/perf/issue36-h100/footprint/footprint_copy.cu || exit 1
W=/tmp/ab6; mkdir -p $W && chmod 700 $W
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune AUTOTUNE_CACHE=$W/c.db
L="u8 16384 16384 16384 16384
u8 16384 16384 22736 19200
i8 19194 22735 22736 19200
i8 19194 22735 32768 32768
i8 19194 22735 24576 20480"
echo "$L" | while read -r t r c li lo; do
  build/autotune bench transpose --type $t --rows $r --cols $c --ld-in $li --ld-out $lo \
    --csv $W/x.csv > $W/x.log 2>&1
  rc=$?
  pt=$(sed -n 's/^\[1\/1\] [^:]*: \([^ ]*\) .*/\1/p' $W/x.log | head -1)
  fp=$(/tmp/fp 1 $r $c $li $lo 256 128 2 0 2>&1 | grep -o 'footprint [0-9]* GB/s [0-9.]*%')
  echo "$t ${r}x$c ld $li/$lo rc=$rc tuned $(awk -F, '$11=="tuned"{printf "%.1f%%", $14*100}' $W/x.csv) $pt | $fp"
  rm -f $W/x.csv
done
echo END
