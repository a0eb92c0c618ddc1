#!/bin/sh
# The footprint copy (footprint_copy.cu): the traffic of a tiled transpose
# without the transposition, for aligned shapes the tuned kernel meets and
# odd ones it misses, over tile shapes, tile orders and blocks an SM; then
# the tuned kernels of the same problems on the same lease. From the
# repository root on the GPU machine; writes $OUT/fp.txt.
set -u
nvcc -O2 -arch=native -Itests/gpu -o /tmp/fp docs/perf/issue36-h100/footprint/footprint_copy.cu || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/fp.txt"
P=""
# E R C LDI LDO, then tiles "TY TXB"; each with the rule's order at 0, 2
# and 4 blocks an SM
scan() {
    prob=$1; shift
    for t in "$@"; do
        for k in 0 2 4; do P="$P $prob $t 2 $k"; done
    done
}
scan "8 8192 8192 8192 8192" "32 256" "64 256" "128 512"
scan "8 10000 10000 10000 10000" "32 256" "64 256" "128 256" "128 512" "256 256" "64 1024"
P="$P 8 10000 10000 10000 10000 64 256 0 0 8 10000 10000 10000 10000 64 256 1 0"
P="$P 8 10000 10000 10000 10000 128 512 0 0 8 10000 10000 10000 10000 128 512 1 0"
scan "8 10000 10000 10240 10240" "64 256" "128 512"
scan "4 8192 8192 8192 8192" "256 256" "64 256"
scan "4 8191 8209 8209 8191" "128 512" "256 256" "64 256"
scan "1 16384 16384 16384 16384" "256 128" "512 128"
scan "1 19194 22735 22735 19194" "256 128" "512 128" "256 256" "512 256"
scan "2 579 380071 380071 579" "128 256" "64 512" "128 512"
# shellcheck disable=SC2086
/tmp/fp $P | tee -a "$OUT/fp.txt"
mkdir -p /tmp/fph && chmod 700 /tmp/fph
export AUTOTUNE_WORKER=$PWD/build/autotune HOME=/tmp/fph AUTOTUNE_CACHE=/tmp/fph/cache.db
for p in "f64 10000 10000 10240 10240" "f64 8192 8192 8192 8192" "u8 16384 16384 16384 16384" \
         "f16 579 380071 380071 579"; do
    set -- $p
    sh tests/gpu/bench_rows.sh transpose --type $1 --rows $2 --cols $3 --ld-in $4 --ld-out $5 |
        tee -a "$OUT/fp.txt"
done
