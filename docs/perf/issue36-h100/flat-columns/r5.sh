#!/bin/bash
# The final template (partials unpredicated, fewer rows in flight for
# wide vectors): every second down-column point of every type and op
# verified again; then f16 max cols of 187725x161 ld 162 (the strip's
# last thread element by element) and bf16 max cols 1071940x464, cold.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W
AT_GPU_DOWN=1 AT_GPU_SAMPLE=2 timeout ${VLIM:-330} build/tests/gpu_reduce-rel > $OUT/gpu_reduce_down_final.tap 2>&1
echo "== gpu_reduce down (every 2nd) rc=$? ok=$(grep -c '^ok' $OUT/gpu_reduce_down_final.tap) notok=$(grep -c '^not ok' $OUT/gpu_reduce_down_final.tap)"
grep -E "FAILED" $OUT/gpu_reduce_down_final.tap | head -5 | cut -c1-300
grep -E "^# reduce " $OUT/gpu_reduce_down_final.tap | awk '{s+=$(NF-3); f+=$(NF-1)} END {print "points", s, "failed", f}'
for P in "--type f16 --op max --axis rows --rows 187725 --cols 161 --ld 162" "--type bf16 --op max --axis rows --rows 1071940 --cols 464"; do
  AUTOTUNE_WORKER=$PWD/build/autotune AUTOTUNE_CACHE=$W/c.db timeout 45 build/autotune bench reduce $P > $W/b.txt 2>&1
  echo "rc=$? $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $W/b.txt | head -1 | sed 's/, input seed.*//' | cut -c1-200)"
  cat $W/b.txt >> $OUT/bench_final.txt
done
echo END
