#!/bin/bash
# Are the tiles cut by the last column a slow tail? (r13: odd rows cost
# the in-kernel edge nothing, odd columns 15-18 points.) r14/build.sh's
# programs as tuned and with the last tile column first, alternated.
# Carry gpurun/rot.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
P="22784 19200"
for round in 1; do
  for v in a100 b100; do
    for sh in "19200 22784 $P" "19200 22783 $P" "19194 22735 $P"; do
      for x in "" r; do
        echo "$round $v$x $sh $(gpurun/rot/$v$x $sh 2>&1 | grep -o 'tuned.*' | sed 's/tuned [0-9.]* ms [0-9.]* GB\/s //' | cut -c1-40)"
      done
    done
  done
  for v in a111 b111; do
    for x in "" r; do
      echo "$round $v$x 19194 22735 22735 19194 $(gpurun/rot/$v$x 19194 22735 22735 19194 2>&1 | grep -o 'tuned.*' | sed 's/tuned [0-9.]* ms [0-9.]* GB\/s //' | cut -c1-40)"
    done
  done
done | tee /tmp/r14.txt
echo "== table"; cat /tmp/r14.txt
