#!/bin/bash
# Is the combine's tail the narrow columns' loss? The same shapes as sum
# (atomics allowed), sum --deterministic (no atomics: the last block
# walks the partials, as min does), and min.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
W=$(mktemp -d); mkdir -p $W/o
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
cat > $W/list <<'L'
--type f64 --op sum --axis rows --rows 132920 --cols 61 --ld 89
--type f64 --op sum --axis rows --rows 132920 --cols 61 --ld 89 --deterministic
--type f64 --op sum --axis rows --rows 132920 --cols 61
--type f64 --op sum --axis rows --rows 132920 --cols 61 --deterministic
--type f64 --op min --axis rows --rows 132920 --cols 61
--type bf16 --op sum --axis rows --rows 354052 --cols 150
--type bf16 --op sum --axis rows --rows 354052 --cols 150 --deterministic
--type bf16 --op amax --axis rows --rows 354052 --cols 150
--type f32 --op sum --axis rows --rows 449061 --cols 81
--type f32 --op max --axis rows --rows 449061 --cols 81
L
i=0
while read -r P; do
  i=$((i+1))
  rm -f $W/c.db*
  AUTOTUNE_CACHE=$W/c.db timeout 60 build/autotune bench reduce $P --csv $W/o/b$i.csv > $W/o/b$i.txt 2>&1
  echo "[$i] $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $W/o/b$i.txt | sed 's/, input seed.*//' | cut -c1-200)"
  if [ $i -le 5 ]; then
  AUTOTUNE_CACHE=$W/c.db timeout 60 $NCU --target-processes all -k regex:at_kernel --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats \
    --metrics dram__bytes_read.sum,sm__cycles_active.avg,gpu__time_duration.sum \
    build/autotune bench reduce $P > $W/o/ncu_$i.txt 2>&1
  echo "    ncu rc=$? $(grep -E 'dram__bytes_read.sum|Duration|DRAM Throughput|Grid Size|Achieved Occupancy|Theoretical Occupancy' $W/o/ncu_$i.txt | tr -s ' ' | tr '\n' ';' | cut -c1-300)"
  fi
done < $W/list
tar czf $OUT/r44.tgz -C $W o
echo "END $(( $(date +%s) - T0 )) s"
