#!/bin/bash
# Item 3 on the H200 at HEAD (f525a3a): a transpose sweep at a seed drawn
# here, problems of 64 MiB or more apart (no cuTENSOR carried: cuBLAS is
# the library beside it). Carry build/autotune.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r44; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "== sweep seed $S"
AUTOTUNE_CACHE=$W/c.db timeout 520 build/autotune bench transpose --sweep 60 --seed "$S" \
  --csv "$O/sweep-$S.csv" > "$O/sweep-$S.log" 2>&1
echo "== sweep rc=$? $SECONDS s"
tail -40 "$O/sweep-$S.log"
