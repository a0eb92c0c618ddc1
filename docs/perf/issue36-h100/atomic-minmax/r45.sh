#!/bin/bash
# A/B: HEAD (e180e7a) against atomic min/max/amax combines, each problem
# cold in its own cache, alternated; 10 fixed problems (narrow and odd
# columns, a whole array, i32, a row control) and 6 drawn now.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
L=$(mktemp)
cat gpurun/list-atomic.txt > $L
python3 gpurun/randreduce.py "" 6 min,max,amax f32,f64,f16,bf16 >> $L 2> $OUT/seed.txt
cat $OUT/seed.txt
LIMIT=45 LOG=$OUT/ab.log sh tests/gpu/bench_reduce_builds.sh $L head=gpurun/bins/autotune-head new=build/autotune 2>&1 | tee $OUT/ab.txt | cut -c1-250
echo "END $(( $(date +%s) - T0 )) s"
