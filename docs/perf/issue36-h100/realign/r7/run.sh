#!/bin/sh
# ncu of the tuned strip: f16 21703965x10 (output rows off every vector: realigned)
# against f16 21703968x10 (rows on 16 bytes: plain vectors), and f32 10000019x9.
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
export AUTOTUNE_CACHE=$OUT/cache.db
for spec in "f16 21703965 10" "f16 21703968 10" "f32 10000019 9"; do
  set -- $spec; t=$1 r=$2 c=$3; d=$OUT/$t-$r; mkdir -p $d
  build/autotune transpose --arch auto --type $t --rows $r --cols $c -o $d/t.cu --quiet > $d/tune.log 2>&1 || { cat $d/tune.log; continue; }
  nvcc -O2 -arch=native -DAT_XC_TYPE=$t tests/gpu/crosscheck.cu $d/t.cu -lcublas -o $d/xc || continue
  echo "== $t ${r}x$c $(sed -n 's/^ \* point: *\([^ ]*\).*/\1/p' $d/t.cu)"
  $d/xc $r $c | cut -c1-200
  timeout 60 $NCU -k regex:autotune_transpose -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats $d/xc $r $c > $d/ncu.txt 2>&1
  grep -E "DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Duration|Achieved Occupancy|Registers Per|Warp Cycles Per Issued|Stall|Block Limit Reg|Mem Busy|Max Bandwidth|L2 Compression|Theoretical Occ" $d/ncu.txt | head -24
done
