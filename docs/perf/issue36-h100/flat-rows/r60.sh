#!/bin/bash
# Flat along rows, as a user would: the emitted .cu of four short-row
# problems built by nvcc beside CUB and memcpy (crosscheck_reduce.sh),
# then autotune bench of each from the same cache; Nsight Compute on the
# flat winner of bf16 sum rows of 311518x127; the rest of gpu_reduce's
# flat points along rows (i32 amax) and the any-input test of f16, f64
# and i32.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
R=$OUT/r60; mkdir -p $R
timeout 200 sh tests/gpu/crosscheck_reduce.sh bf16:sum cols 311518 127 bf16:min cols 311518 127 \
  f16:sum cols 1871852 31 i32:min cols 1991150 49 > $R/crosscheck.txt 2>&1
echo "crosscheck rc=$? $(( $(date +%s) - T0 )) s"
grep -E "emitted point|crosscheck|autotune bench|of copy" $R/crosscheck.txt | cut -c1-220
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
XC_RUN="$NCU -k regex:_kernel\$ --launch-skip 5 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section InstructionStats --section ComputeWorkloadAnalysis" \
  timeout 150 sh tests/gpu/crosscheck_reduce.sh bf16:sum cols 311518 127 > $R/ncu-bf16-sum.txt 2>&1
echo "ncu rc=$? $(( $(date +%s) - T0 )) s"
grep -E "emitted point|DRAM Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Size|Grid Size|Issued Warp Per|No Eligible|Warp Cycles Per Issued|Duration|Compute \(SM\) Th|Waves Per SM|Executed Ipc A|Issue Slots Busy|L1/TEX Hit|L2 Hit" $R/ncu-bf16-sum.txt | head -24
AT_GPU_ALONG=1 AT_GPU_FLAT=1 AT_GPU_SAMPLE=3 AT_GPU_ONLY="reduce_i32_amax" \
  timeout 60 build/tests/gpu_reduce-rel > $R/flat-rows-3.tap 2>&1; echo "flat rows i32 amax rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^not ok|FAILED|points verified" $R/flat-rows-3.tap
AT_GPU_ONLY="reduce_any_input_f16,reduce_any_input_i32,reduce_any_input_f64" AT_GPU_SAMPLE=6 timeout 100 build/tests/gpu_reduce-rel > $R/any.tap 2>&1; echo "any input rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^not ok|FAILED|any input.*40009" $R/any.tap | head
