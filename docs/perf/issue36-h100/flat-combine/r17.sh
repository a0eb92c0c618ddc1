#!/bin/bash
# The leaders' final re-timing in samples of 1 ms (was 0.1): 8a7ab3f
# (old) against the tree (new) on short column reductions, the bench's
# long samples judging the pick; then the README's transpose tune, cold
# and warm (--retune), to see what the longer samples cost.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
LIMIT=60 LOG=$OUT/bench.txt sh tests/gpu/bench_reduce_builds.sh gpurun/list10.txt old=gpurun/autotune-8a7 new=build/autotune
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W
export CUDA_CACHE_DISABLE=1
for b in old new; do
  bin=gpurun/autotune-8a7; [ $b = new ] && bin=build/autotune
  rm -rf $W/$b; mkdir -p $W/$b
  for run in cold warm warm2; do
    extra=""; [ $run != cold ] && extra=--retune
    t0=$(date +%s.%N)
    AUTOTUNE_WORKER=$PWD/$bin AUTOTUNE_CACHE=$W/$b/c.db AUTOTUNE_CUBIN_CACHE=$W/$b/cubins.db timeout 60 $bin transpose --arch auto -o $W/$b/t.cu $extra > $W/$b/$run.txt 2>&1
    t1=$(date +%s.%N)
    echo "$b $run rc=$? wall=$(python3 -c "print(round($t1-$t0,2))") :: $(grep -E '^  best|kernel:|tuned in' $W/$b/$run.txt | head -2 | cut -c1-160 | tr '\n' ' ')"
  done
done
echo END
