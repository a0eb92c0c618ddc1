#!/bin/sh
# The footprint copy (footprint_copy.cu) of f64 transposes whose row
# pitch alone changes: 8192 x 8192 and 10000 x 10000 at leading
# dimensions from 8192 to 16384, the rule's order, each SM full; then the
# tuned kernel at two of them. From the repository root on the GPU machine;
# writes $OUT/pitch.txt.
set -u
nvcc -O2 -arch=native -Itests/gpu -o /tmp/fp docs/perf/issue36-h100/footprint/footprint_copy.cu || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/pitch.txt"
P=""
for ld in 8192 8200 8256 9216 10000 12288 16384; do
    for t in "32 256" "64 256"; do P="$P 8 8192 8192 $ld $ld $t 2 0"; done
done
for ld in 10000 10240 12288 16384; do
    for t in "32 256" "64 256"; do P="$P 8 10000 10000 $ld $ld $t 2 0"; done
done
# shellcheck disable=SC2086
/tmp/fp $P | tee -a "$OUT/pitch.txt"
mkdir -p /tmp/fph && chmod 700 /tmp/fph
export AUTOTUNE_WORKER=$PWD/build/autotune HOME=/tmp/fph AUTOTUNE_CACHE=/tmp/fph/cache.db
for p in "8192 8192 10000" "10000 10000 16384" "8192 8192 8192"; do
    set -- $p
    sh tests/gpu/bench_rows.sh transpose --type f64 --rows $1 --cols $2 --ld-in $3 --ld-out $3 |
        tee -a "$OUT/pitch.txt"
done
