#!/bin/bash
# Is the odd output pitch's cost DRAM writes of partial 64- or 128-byte
# pieces? r9's ncu: the H200 winner of i8 19194x22735 wrote 551 MB to DRAM
# for 436 MB of output (read 440). Three points, each with the skewed
# stores' boundary at 32 (as tuned), 64 and 128 bytes (r10/build.sh;
# carry gpurun/sk): timed twice, alternated, in the nvcc crosscheck
# program (bit-exact check included), then DRAM bytes by ncu.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
A="19194 22735 22735 19194"
for round in 1 2; do
  for p in p1 p2 p3; do for sk in 32 64 128; do
    echo "$round $p s$sk $(gpurun/sk/${p}s$sk $A 2>&1 | grep -o 'tuned.*' | cut -c1-60)"
  done; done
done | tee /tmp/r10.txt
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
for p in p1 p2; do for sk in 32 64 128; do
  echo "== ncu $p s$sk"
  $NCU -k regex:autotune_transpose_.*_kernel\$ --launch-skip 5 --launch-count 1 \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,smsp__inst_executed.sum,gpu__time_duration.sum \
    gpurun/sk/${p}s$sk $A 2>&1 | grep -E "dram__|lts__|smsp__|gpu__time" | sed 's/  */ /g'
done; done
echo "== table"; cat /tmp/r10.txt
