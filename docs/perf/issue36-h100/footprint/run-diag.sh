#!/bin/sh
# The footprint copy (footprint_copy.cu): f64 8192 x 8192 at row pitches
# with and without a factor of 5, and tiles taken down the tile columns
# with every D tile rows shifted a column further (ORDER 300 + D) against
# the rule (2). From the repository root on the GPU machine; writes
# $OUT/diag.txt.
set -u
nvcc -O2 -arch=native -Itests/gpu -o /tmp/fp docs/perf/issue36-h100/footprint/footprint_copy.cu || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/diag.txt"
P=""
# pitch in bytes: 8320: 2^10 x 5 x 13; 8448: 2^11 x 3 x 11; 8704: 2^9 x 17 (x 8)
for ld in 8320 8448 8704 8960 9600 9728 10000 10240; do P="$P 8 8192 8192 $ld $ld 32 256 2 0"; done
orders() {  # E R C LDI LDO TY TXB, then orders
    prob=$1; shift
    for o in "$@"; do P="$P $prob $o 0"; done
}
orders "8 10000 10000 10000 10000 32 256" 2 301 302 304 308 332
orders "8 10000 10000 10000 10000 64 256" 2 301 304 316
orders "8 8192 8192 10000 10000 32 256" 2 301 304 316
orders "8 8192 8192 8192 8192 32 256" 2 301 304
orders "4 8191 8209 8209 8191 64 256" 2 301 304 316
orders "1 19194 22735 22735 19194 256 128" 2 301 304 316
orders "2 579 380071 380071 579 64 512" 2 301 304
# shellcheck disable=SC2086
/tmp/fp $P | tee -a "$OUT/diag.txt"
