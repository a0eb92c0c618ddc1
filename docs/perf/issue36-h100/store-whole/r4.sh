#!/bin/bash
# As a user would: the emitted .cu of three winners in an nvcc program
# against autotune bench, with the change.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export AUTOTUNE_WORKER=$PWD/build/autotune
timeout 280 sh tests/gpu/crosscheck.sh u8:22119x17643 i8:19194x22735 f16:579x380071 > $OUT/crosscheck.txt 2>&1
echo "rc=$?"; grep -E "emitted point|crosscheck|autotune bench: [0-9]" $OUT/crosscheck.txt | cut -c1-260
echo END
