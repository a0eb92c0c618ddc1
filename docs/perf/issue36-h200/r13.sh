#!/bin/bash
# Where S2's points go (r11: the same kernel a100, tile 256x256 vec4 with
# the element path, 96.4% of the copy on u8 19200x22784 and 81.6% on
# 19194x22735 at the same pitches 22784/19200, its edge tiles 2.4% of the
# tiles). Odd rows alone, odd columns alone, both, and whole shapes a tile
# smaller; a100 (edges in the kernel) and a000 (whole tiles, the strips to
# the plain kernel). Carry gpurun/ed.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
  for sh in "19200 22784" "19200 22735" "19194 22784" "19194 22735" "18944 22528" "19200 22528" "18944 22784" "19199 22784" "19200 22783"; do
    for v in a100 a000; do
      echo "$round $v $sh $(gpurun/ed/$v $sh 22784 19200 2>&1 | grep -o 'tuned.*' | sed 's/tuned [0-9.]* ms [0-9.]* GB\/s //' | cut -c1-40)"
    done
  done
done | tee /tmp/r13.txt
echo "== table"; cat /tmp/r13.txt
