#!/bin/sh
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
P=$(python3 gpurun/randthin.py 2 2>$OUT/seed.txt); cat $OUT/seed.txt; echo "random: $P"
timeout 110 sh tests/gpu/crosscheck.sh $P > $OUT/xc-random.txt 2>&1; echo "xc rc=$?"; grep -E "crosscheck|autotune bench|emitted" $OUT/xc-random.txt | cut -c1-230
for x in $P; do t=${x%%:*}; s=${x#*:}; echo "$t ${s%x*} ${s#*x}"; done > $OUT/list5.txt
KEEP= sh gpurun/ab.sh $OUT/list5.txt gpurun/bins/autotune-f9e0a2c build/autotune > $OUT/ab.txt 2>&1
AT_GPU_ALONG=1 AT_GPU_SAMPLE=4 AT_GPU_ONLY=reduce_bf16_sum,reduce_f16_amax timeout 110 compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_reduce-rel > $OUT/memcheck-reduce-along.txt 2>&1; echo "memcheck reduce rc=$?"
grep -E "SUMMARY|^(ok|not ok)|points verified" $OUT/memcheck-reduce-along.txt | head -6
timeout 60 sh tests/gpu/crosscheck_reduce.sh bf16 cols 311518 127 > $OUT/xc-reduce.txt 2>&1; echo "xcr rc=$?"; tail -6 $OUT/xc-reduce.txt | cut -c1-230
echo "=== table"; grep -A10 "=== table" $OUT/ab.txt
