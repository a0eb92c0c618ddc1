#!/bin/bash
# Down-column problems of 64 MiB or more from a sweep drawn with seed
# 3150915708 (drawn when this script was written; `autotune bench reduce
# --sweep 100 --seed 3150915708 --list`), HEAD then the tree, each cold
# in its own cache. Flat-capable ones (ld <= 512) first.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W/old $W/new
START=$(date +%s)
run() { # name bin args...
  local n=$1 b=$2; shift 2; local f=$W/$n/$(echo "$*" | tr ' -' '__')
  AUTOTUNE_WORKER=$PWD/$b AUTOTUNE_CACHE=$W/$n/c.db timeout 40 $b bench reduce --csv $f.csv "$@" > $f.txt 2>&1
  echo "$n rc=$? $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $f.txt | head -1 | sed 's/^\[1\/1\] //; s/ (tuned in \([0-9.]*\) s)/ \1s/; s/, input seed.*//; s/ buffer sets*//' | cut -c1-150)"
}
while read -r P; do
  [ -z "$P" ] && continue
  [ $(( $(date +%s) - START )) -gt ${DEADLINE:-440} ] && { echo "deadline: stopped before $P"; break; }
  run old gpurun/autotune-head $P
  run new build/autotune $P
done < gpurun/list4.txt
tar czf $OUT/r4.tgz --exclude='*.db*' -C $W old new
echo END
