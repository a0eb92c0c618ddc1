#!/bin/bash
# Where i8 19194x22735's points go: the same matrix with its input rows on
# 16 bytes or not (ld_in 22736 or 22735) and its output rows on the
# 32-byte sectors or not (ld_out 19200 or 19194). For each: the 1-byte
# winner as a user builds it (gpurun/banks/w_old, every path compiled
# in), the footprint copy at its tile (256 rows x 128 bytes, the rule's
# order), and a cold tune of that layout (`autotune bench`). Two rounds
# of the first two.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O2 -arch=native -Itests/gpu -o /tmp/fp docs/perf/issue36-h100/footprint/footprint_copy.cu || exit 1
W=/tmp/ab5; mkdir -p $W && chmod 700 $W
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune AUTOTUNE_CACHE=$W/c.db
L="22736 19200
22735 19200
22736 19194
22735 19194"
for round in 1 2; do
  echo "$L" | while read -r li lo; do
    echo "$round winner ld $li/$lo $(gpurun/banks/w_old 19194 22735 $li $lo 2>&1 | grep -o 'tuned.*' | cut -c1-60)"
    echo "$round footprint ld $li/$lo $(/tmp/fp 1 19194 22735 $li $lo 256 128 2 0 2>&1 | grep -o 'copy [0-9]* GB/s .*')"
  done
done
echo "$L" | while read -r li lo; do
  build/autotune bench transpose --type i8 --rows 19194 --cols 22735 --ld-in $li --ld-out $lo \
    --csv $W/x.csv > $W/x.log 2>&1
  pt=$(sed -n 's/^\[1\/1\] [^:]*: \([^ ]*\) .*/\1/p' $W/x.log | head -1)
  echo "tuned ld $li/$lo rc=$? $(awk -F, '$11=="tuned"{printf "%.1f%%", $14*100}' $W/x.csv) $pt"
  rm -f $W/x.csv
done
echo END
