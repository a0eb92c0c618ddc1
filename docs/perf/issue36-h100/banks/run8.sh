#!/bin/bash
# The tile order: run7.sh's e1 kernel with the template's rule (e1: down
# the tile columns where there are more tile columns than tile rows),
# tile rows first always (e1r) and tile columns first always (e1c), on
# 16384x16384 and 19194x22735 (89 tile columns, 75 tile rows) at two
# pitches. One round.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for v in e1 e1r e1c; do
  echo "$v 16384x16384 $(gpurun/banks/$v 16384 16384 2>&1 | grep -o 'tuned.*' | cut -c1-60)"
  for ld in "32768 32768" "22736 19200"; do
    echo "$v 19194x22735 ld $ld $(gpurun/banks/$v 19194 22735 $ld 2>&1 | grep -o 'tuned.*' | cut -c1-60)"
  done
done
echo END
