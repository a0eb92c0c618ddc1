#!/bin/bash
# Seed 3150915708's 15 down-column problems of 64 MiB or more with the
# tree (8a7ab3f): the flat combine and the programs' aliases.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
t0=$(date +%s)
LIMIT=60 LOG=$OUT/bench.txt sh tests/gpu/bench_reduce_builds.sh gpurun/list9.txt tree=build/autotune
echo "all 15: $(( $(date +%s) - t0 )) s"
echo END
