#!/bin/bash
# general.sh with its new half: a whole-tile kernel that skews its stores
# (ld_out 1028), on its shape, other shapes (the launcher's split) and
# buffers off its vectors.
set -u
nvidia-smi -L
tar xzf build/p47.tgz
d=/tmp/g-general; rm -rf $d; mkdir -p -m 700 $d
AT_GPU_TMP=$d timeout 200 sh tests/gpu/run.sh tests/gpu/general.sh > $OUT/general.tap 2>&1
echo "== general rc=$?"
grep -E "^ *(ok|not ok)|wrong|point" $OUT/general.tap | cut -c1-170
