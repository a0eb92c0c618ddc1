#!/bin/sh
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 1 2; do
timeout 80 sh tests/gpu/crosscheck.sh u8:4531201x24 > $OUT/xc-$i.txt 2>&1; echo "xc rc=$?"; grep -E "crosscheck|autotune bench" $OUT/xc-$i.txt | cut -c1-200
done
