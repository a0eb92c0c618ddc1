#!/bin/bash
# Byte transposes through aligned 16-byte vectors only, the realignment
# left to where shared memory is read (r40/byte_gather.cu), against the
# copy, on the odd 1-byte shapes that miss item 1 and a whole one; then
# the tree's cold tunes of the first two on the same lease. Carry
# gpurun/r40 (byte_gather built by nvcc -O3 -arch=sm_90 -Itests/gpu) and
# build/autotune.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
G=gpurun/r40/byte_gather
A="19194 22735 22735 19194"
for cfg in "256 64 0 1 1" "256 64 0 1 0" "256 64 0 0 1" "256 64 16 1 1" "256 128 0 1 1" \
           "256 128 16 1 1" "128 64 0 1 1" "128 128 0 1 1" "256 32 0 1 1"; do
  $G $A $cfg
done
for P in "22119 17643 17643 22119" "19200 22784 22784 19200" "100636 7554 7554 100636" \
         "10938 13536 13551 10960"; do
  for cfg in "256 64 0 1 1" "256 128 0 1 1" "128 128 0 1 1"; do $G $P $cfg; done
done
echo "== gather done at $SECONDS s"
W=/tmp/r40; mkdir -p $W && chmod 700 $W
export HOME=$W
for p in "i8 19194 22735 22735 19194" "u8 22119 17643 17643 22119"; do
  read -r t r c li lo <<< "$p"
  s0=$SECONDS; rm -f $W/x.csv
  AUTOTUNE_WORKER=$PWD/build/autotune AUTOTUNE_CACHE=$W/$t.db timeout 70 build/autotune bench transpose \
    --type $t --rows $r --cols $c --ld-in $li --ld-out $lo --csv $W/x.csv > $W/x.log 2>&1
  rc=$?
  pt=$(sed -n 's/^\[1\/1\] [^:]*: \([^ ]*\) .*/\1/p' $W/x.log | head -1)
  fr=$(awk -F, '$11=="tuned"{printf "%.1f", $14*100}' $W/x.csv 2>/dev/null)
  echo "tree's tune: $t ${r}x$c rc=$rc $((SECONDS - s0))s tuned $fr% of the copy, $pt"
done
echo "== end at $SECONDS s"
