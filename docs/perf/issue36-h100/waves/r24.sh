#!/bin/bash
# Final build: tune --json against its schema (a new field, kernels); a
# cold tune's report (compiled, kernels); the emitted .cu of a waves
# winner in the nvcc program (the launcher as committed).
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
timeout 120 sh tests/gpu/run.sh tests/gpu/json.sh > $OUT/json.txt 2>&1
echo "== json rc=$?"; grep -E "^(ok|not ok)|^Result" $OUT/json.txt | cut -c1-200
export AUTOTUNE_WORKER=$PWD/build/autotune
T=$(mktemp -d)
AUTOTUNE_CACHE=$T/c.db AUTOTUNE_CUBIN_CACHE=$T/cub.db timeout 60 build/autotune reduce --arch auto --type bf16 --op amax --axis rows --rows 1051192 --cols 94 -o $T/x.cu > $OUT/tune.txt 2>&1
echo "== tune rc=$?"; grep -E "tuned in|best:|median" $OUT/tune.txt | cut -c1-300
AUTOTUNE_CACHE=$T/c.db AUTOTUNE_CUBIN_CACHE=$T/cub.db timeout 60 build/autotune reduce --arch auto --type bf16 --op amax --axis rows --rows 1051192 --cols 94 -o $T/x.cu --retune --json > $OUT/tune.json 2>/dev/null
echo "== warm retune json rc=$? $(python3 -c "import json;j=json.load(open('$OUT/tune.json'));print({k:j.get(k) for k in ('compiled','kernels','from_compile_cache','point')})" 2>&1)"
timeout 100 sh tests/gpu/crosscheck_reduce.sh f16 rows 1015457 47 f32 rows 451023 202 > $OUT/crosscheck.txt 2>&1
echo "== crosscheck rc=$?"
grep -E "emitted point|crosscheck rows|autotune bench" $OUT/crosscheck.txt | cut -c1-220
echo END
# Nsight Compute on three waves winners (the first launch of the tuned
# kernel in the bench, from a cache tuned just before).
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
W=$(mktemp -d)
printf '%s\n' "--type f32 --op max --axis rows --rows 449061 --cols 81" "--type bf16 --op amax --axis rows --rows 1051192 --cols 94" "--type f16 --op sumsq --axis rows --rows 1015457 --cols 47" > $W/list
while read -r P; do
  key=$(echo $P | tr -cd 'a-z0-9' | cut -c1-40)
  rm -f $W/c.db*
  AUTOTUNE_CACHE=$W/c.db timeout 40 build/autotune bench reduce $P > $W/b1.txt 2>&1
  echo "tuned: $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $W/b1.txt | sed 's/, input seed.*//' | cut -c1-160)"
  AUTOTUNE_CACHE=$W/c.db timeout 90 $NCU --target-processes all -k regex:at_kernel --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
    build/autotune bench reduce $P > $OUT/ncu_$key.txt 2>&1
  echo "ncu rc=$? $P"
  grep -E "DRAM Throughput|Duration|SM Active Cycles|Elapsed Cycles|Achieved Occupancy|Grid Size|Block Size|Waves Per SM|Warp Cycles Per Issued|No Eligible|Stall" $OUT/ncu_$key.txt | head -14
done < $W/list
echo END2
