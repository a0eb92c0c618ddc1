#!/bin/bash
# Does an asynchronous copy raise a byte tile's ceiling (r8/footprint_async.cu)?
# The register footprint (the original tool, r1's) beside it on the same
# problems, then the tuned kernel's bench of i8 19194x22735.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r8; mkdir -p $W && chmod 700 $W
export HOME=$W AUTOTUNE_CACHE=$W/c.db AUTOTUNE_WORKER=$PWD/build/autotune
nvcc -O2 -arch=native -Itests/gpu -o $W/fpa docs/perf/issue36-h200/r8/footprint_async.cu || exit 1
nvcc -O2 -arch=native -Itests/gpu -o $W/fp docs/perf/issue36-h100/footprint/footprint_copy.cu || exit 1
I="19194 22735 22735 19194"
$W/fp 1 $I 256 128 2 0 1 $I 256 256 2 0 1 16384 16384 16384 16384 256 256 2 0 | tee $W/fp.txt
$W/fpa $I 256 128 2 3  $I 256 128 3 2  $I 128 128 2 6  $I 128 128 3 4  $I 128 128 4 3 \
       $I 256 64 3 3  $I 128 256 2 3  $I 64 256 3 4 \
       16384 16384 16384 16384 256 128 2 3  16384 16384 16384 16384 128 128 3 4 \
       $I 256 128 2 2  $I 128 128 3 3 | tee $W/fpa.txt
build/autotune bench transpose --type i8 --rows 19194 --cols 22735 --csv $W/b.csv 2>&1 | grep -E "point|19194" | cut -c1-150
echo "== table"
sed -E 's/.*(1-byte|async) ([0-9x]+) ld ([0-9/]+) tile ([0-9]+) rows x ([0-9]+) bytes (order [0-9]+ bpsm [0-9]+|stages [0-9]+ bpsm [0-9]+).*footprint [0-9]+ GB\/s ([0-9.]+%) \(([0-9]+) missed, ([0-9]+) stray.*/\1 \2 \3 \4x\5 \6 \7 m\8 s\9/' $W/fp.txt $W/fpa.txt
