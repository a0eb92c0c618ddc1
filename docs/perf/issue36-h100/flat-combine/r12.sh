#!/bin/bash
# The new any-input GPU test; memcheck of it and of a sample of flat
# points (racecheck too); ncu of three flat winners.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
AT_GPU_ONLY='reduce_any_input_*' timeout 200 build/tests/gpu_reduce-rel > $OUT/any_input.tap 2>&1
echo "== any input rc=$? ok=$(grep -c '^ok' $OUT/any_input.tap) notok=$(grep -c '^not ok' $OUT/any_input.tap)"
grep -E "^# (any input|FAILED)" $OUT/any_input.tap | cut -c1-200 | head -30
AT_GPU_SAMPLE=40 AT_GPU_ONLY='reduce_any_input_*' timeout 100 $CS --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_reduce-rel > $OUT/memcheck_any.txt 2>&1
echo "== memcheck any rc=$? $(grep -E 'ERROR SUMMARY' $OUT/memcheck_any.txt | sort | uniq -c | tr '\n' ' ')"
AT_GPU_DOWN=1 AT_GPU_FLAT=1 AT_GPU_SAMPLE=8 AT_GPU_ONLY='reduce_f32_max,reduce_bf16_amax,reduce_f64_sum,reduce_i32_min,reduce_f16_sumsq' timeout 100 $CS --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_reduce-rel > $OUT/memcheck_flat.txt 2>&1
echo "== memcheck flat rc=$? $(grep -E 'ERROR SUMMARY' $OUT/memcheck_flat.txt | sort | uniq -c | tr '\n' ' ') $(grep -c '^ok' $OUT/memcheck_flat.txt) ok"
AT_GPU_DOWN=1 AT_GPU_FLAT=1 AT_GPU_SAMPLE=24 AT_GPU_ONLY='reduce_f32_max,reduce_f64_sum' timeout 60 $CS --tool racecheck --error-exitcode 99 --print-limit 20 build/tests/gpu_reduce-rel > $OUT/racecheck_flat.txt 2>&1
echo "== racecheck flat rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $OUT/racecheck_flat.txt | sort | uniq -c | tr '\n' ' ') $(grep -c '^ok' $OUT/racecheck_flat.txt) ok"
while read -r P; do
  key=$(echo $P | tr -cd 'a-z0-9' | cut -c1-40)
  rm -f $W/c.db*
  AUTOTUNE_WORKER=$PWD/build/autotune AUTOTUNE_CACHE=$W/c.db timeout 40 build/autotune bench reduce $P > $W/b1.txt 2>&1
  echo "tuned: $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $W/b1.txt | sed 's/, input seed.*//' | cut -c1-160)"
  AUTOTUNE_WORKER=$PWD/build/autotune AUTOTUNE_CACHE=$W/c.db timeout 90 $NCU --target-processes all -k regex:at_kernel --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
    build/autotune bench reduce $P > $OUT/ncu_$key.txt 2>&1
  echo "ncu rc=$? $P"
  grep -E "DRAM Throughput|Memory Throughput|Duration|Achieved Occupancy|Registers Per|Grid Size|Block Size|Waves Per SM|Theoretical Occupancy|Warp Cycles Per Issued|Issue Slots Busy|Stall|L2 Hit" $OUT/ncu_$key.txt | head -20
done < gpurun/list6.txt
echo END
