#!/bin/bash
# The final space (atomics in, a second pass out for min/max/amax):
# HEAD (e180e7a) against it, cold, alternated; 4 fixed problems and 2
# drawn now. Tune times and winners.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
L=$(mktemp)
cat gpurun/list-final.txt > $L
python3 gpurun/randreduce.py "" 2 min,max,amax f32,f64,f16,bf16 >> $L 2> $OUT/seed.txt
cat $OUT/seed.txt
LIMIT=45 LOG=$OUT/ab-final.log sh tests/gpu/bench_reduce_builds.sh $L head=gpurun/bins/autotune-head final=build/autotune 2>&1 | tee $OUT/ab-final.txt | cut -c1-250
echo "END $(( $(date +%s) - T0 )) s"
