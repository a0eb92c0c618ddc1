#!/bin/bash
# What the paths an odd shape compiles in cost (r11/build.sh; carry
# gpurun/ed). Shapes: S1 u8 19200x22784 ld 22784/19200 (whole tiles, no
# path needed), S2 19194x22735 at the same pitches (tiles cut by the edge:
# the 000 build's launcher takes whole tiles and sends the strips to its
# plain kernel), S3 19194x22735 at its own pitches (needs all three paths).
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
S1="19200 22784 22784 19200"; S2="19194 22735 22784 19200"; S3="19194 22735 22735 19194"
for round in 1 2; do
  for p in a b; do
    for v in 000 100 110 111; do
      echo "$round $p$v S1 $(gpurun/ed/$p$v $S1 2>&1 | grep -o 'tuned.*' | cut -c1-60)"
      echo "$round $p$v S2 $(gpurun/ed/$p$v $S2 2>&1 | grep -o 'tuned.*' | cut -c1-60)"
    done
    echo "$round ${p}111 S3 $(gpurun/ed/${p}111 $S3 2>&1 | grep -o 'tuned.*' | cut -c1-60)"
  done
done | tee /tmp/r11.txt
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
for v in a000 a100 a110 a111; do
  echo "== ncu $v S1 $($NCU -k regex:autotune_transpose_.*_kernel\$ --launch-skip 5 --launch-count 1 \
    --metrics smsp__inst_executed.sum,gpu__time_duration.sum,launch__registers_per_thread \
    gpurun/ed/$v $S1 2>&1 | grep -E "smsp__|gpu__time|registers" | sed 's/  */ /g' | tr '\n' ' ')"
done
echo "== table"; sed 's/tuned [0-9.]* ms [0-9.]* GB\/s //' /tmp/r11.txt
