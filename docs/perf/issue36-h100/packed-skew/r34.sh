#!/bin/bash
# The packed skew's occupancy cost (the review of 4572932): aligned 1- and
# 2-byte problems, whose rows need no skew but whose packed points now
# keep 32 bytes of rows more in shared memory, tuned cold by e70bdd7
# (before the skew) and by HEAD, alternated; the last two drawn at random
# (seed 95764612, sides multiples of 32, 64-400 MiB).
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W/old $W/new
run() { # name bin args...
  local n=$1 b=$(readlink -f $2); shift 2; local f=$W/$n/$(echo "$*" | tr ' -' '__')
  AUTOTUNE_WORKER=$b AUTOTUNE_CACHE=$W/$n/c.db AUTOTUNE_CUBIN_CACHE=$W/$n/cub.db timeout 60 $b bench transpose --csv $f.csv "$@" > $f.txt 2>&1
  echo "$n rc=$? $*: $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $f.txt | head -1 | cut -c1-220)"
}
while read -r P; do
  [ $SECONDS -lt 380 ] || { echo "skipped (time): $P"; continue; }
  run old gpurun/autotune-e70 $P
  run new build/autotune $P
done < gpurun/list-aligned.txt > $OUT/ab-aligned.txt 2>&1
cat $OUT/ab-aligned.txt
tar czf $OUT/bench.tgz -C $W old new --exclude='*.db*'
echo END
