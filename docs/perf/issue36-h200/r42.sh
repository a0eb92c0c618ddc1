#!/bin/bash
# Byte transposes through aligned 16-byte vectors, realigned in registers
# by warp shuffles on both sides (r42/byte_shuffle.cu), against the copy,
# on r40's shapes; compute-sanitizer memcheck on small odd shapes; then the
# tree's cold tunes of the first two on the same lease. Carry gpurun/r42
# (nvcc -O3 -arch=sm_90 -std=c++17 -Itests/gpu) and build/autotune.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
G=gpurun/r42/byte_shuffle
for P in "19194 22735 22735 19194" "22119 17643 17643 22119" "19200 22784 22784 19200" \
         "100636 7554 7554 100636" "10938 13536 13551 10960"; do
  for cfg in "128 1" "256 1"; do $G $P $cfg; done
done
$G 19194 22735 22735 19194 128 0
echo "== timed at $SECONDS s"
NOTIME=1 compute-sanitizer --tool memcheck --print-limit 5 $G 3001 2011 2013 3007 128 1 \
  1000 777 777 1000 256 1 333 4099 4101 345 128 0 2>&1 | tail -6
echo "== memcheck at $SECONDS s"
W=/tmp/r42; mkdir -p $W && chmod 700 $W
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
