#!/bin/sh
# The footprint copy (footprint_copy.cu) with tiles taken in bands: G tile
# columns along their rows (ORDER 100 + G) or G tile rows down their
# columns (200 + G), against the tuned kernel's rule (2). From the
# repository root on the GPU machine; writes $OUT/bands.txt.
set -u
nvcc -O2 -arch=native -Itests/gpu -o /tmp/fp docs/perf/issue36-h100/footprint/footprint_copy.cu || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/bands.txt"
P=""
orders() {  # E R C LDI LDO TY TXB, then orders
    prob=$1; shift
    for o in "$@"; do P="$P $prob $o 0"; done
}
for t in "64 256" "32 256" "128 256"; do
    orders "8 10000 10000 10000 10000 $t" 2 102 104 108 116 202 204 208 216
done
orders "8 8192 8192 8192 8192 32 256" 2 104 108 204
for t in "64 256" "128 512"; do
    orders "4 8191 8209 8209 8191 $t" 2 102 104 108 116 202 204 208
done
orders "1 19194 22735 22735 19194 256 128" 2 102 104 108 116 202 204 208 216
for t in "64 512" "128 256"; do
    orders "2 579 380071 380071 579 $t" 2 102 104 108 202 204
done
orders "1 16384 16384 16384 16384 256 128" 2 104 204
# shellcheck disable=SC2086
/tmp/fp $P | tee -a "$OUT/bands.txt"
