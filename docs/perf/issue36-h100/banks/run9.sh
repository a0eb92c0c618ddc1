#!/bin/bash
# PREPARED, NOT RUN (no device time was left on 2026-11-28): the test of
# the span hypothesis in docs/PERFORMANCE.md ("Where i8 19194x22735's
# points go"). Byte tiles 256 rows tall at pitches of 19-32 KB span 4-8
# MB a side; if pages (TLB reach) or the DRAM mapping cost what 16384x16384
# at its 16 KB pitch does not pay, the footprint copy (no transpose, no
# shared memory) should fall with the pitch at fixed dims, rise as the
# tile gets shorter, and a 1 GiB square at pitch 32768 should miss too.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O2 -arch=native -Itests/gpu -o /tmp/fp docs/perf/issue36-h100/footprint/footprint_copy.cu || exit 1
W=/tmp/ab9; mkdir -p $W && chmod 700 $W
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune AUTOTUNE_CACHE=$W/c.db
P=""
# a) u8 16384x16384, pitch swept (both sides), tile 256 rows x 256 bytes
for ld in 16384 16400 17408 19200 20480 22736 24576 32768 49152 65536; do
  P="$P 1 16384 16384 $ld $ld 256 256 2 0"
done
# b) i8 19194x22735 at 22736/19200 and 32768/32768, tile heights 64-512
for ld in "22736 19200" "32768 32768"; do
  for t in "64 512" "128 256" "128 512" "256 128" "256 256" "512 128"; do
    P="$P 1 19194 22735 $ld $t 2 0"
  done
done
# c) u8 32768x32768 at its own pitch
P="$P 1 32768 32768 32768 32768 256 256 2 0 1 32768 32768 32768 32768 128 256 2 0"
# shellcheck disable=SC2086
/tmp/fp $P
for prob in "u8 32768 32768 32768 32768" "u8 16384 16384 32768 32768"; do
  set -- $prob
  build/autotune bench transpose --type $1 --rows $2 --cols $3 --ld-in $4 --ld-out $5 \
    --csv $W/x.csv > $W/x.log 2>&1
  echo "$prob tuned $(awk -F, '$11=="tuned"{printf "%.1f%%", $14*100}' $W/x.csv)"
  rm -f $W/x.csv
done
echo END
