#!/bin/bash
# Does what the bytes hold move the copy's rate or a read's?
# r34/data_bits.cu at 336 MiB (f32 max down 520288x169's input) and 64
# MiB, two rounds. Built there. Under a minute.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r34; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
nvcc -O3 -arch=native -I tests/gpu docs/perf/issue36-h200/r34/data_bits.cu -o "$W/db"
for round in 1 2; do
  for m in 336 64; do
    echo "== round $round"
    timeout 120 "$W/db" "$m"
  done
done 2>&1 | tee "$O/data_bits.txt"
