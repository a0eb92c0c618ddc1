#!/bin/bash
# The first 30 problems of the committed sweep (seed 1105517310, measured
# at 7e3990a) again with this build.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
T=$(mktemp -d); export AUTOTUNE_CACHE=$T/c.db
timeout 230 build/autotune bench transpose --sweep 30 --seed 1105517310 --csv $OUT/sweep30.csv > $OUT/sweep30.log 2>&1
echo "rc=$?"; grep -E '^\[[0-9]+/30\]' $OUT/sweep30.log | cut -c1-150 | tail -32
echo END
