#!/bin/bash
# 1. The tuner/bench disagreement on f32 max cols 449061x81: the tuner's
#    measurement flags (0 random bits, short samples; 2 finite inputs;
#    4 2 ms samples; 6 both), three tunes each, each pick then timed by
#    the bench from that cache. 2. Every flat point of f16, bf16, f64 bit
#    for bit. 3. memcheck on every 10th flat point of f32 max and bf16 amax.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
T=$(mktemp -d)
X=$PWD/gpurun/autotune-exp
P="--type f32 --op max --axis rows --rows 449061 --cols 81"
for k in 0 2 4 6; do for i in 1 2 3; do
  AT_EXP_MEASURE=$k AUTOTUNE_WORKER=$X AUTOTUNE_CACHE=$T/c$k$i.db AUTOTUNE_CUBIN_CACHE=$T/cub.db \
    timeout 60 $X reduce --arch auto $P -o $T/x.cu --quiet --json > $OUT/tune_$k$i.json 2>$OUT/tune_$k$i.err
  AUTOTUNE_WORKER=$X AUTOTUNE_CACHE=$T/c$k$i.db AUTOTUNE_CUBIN_CACHE=$T/cub.db \
    timeout 60 $X bench reduce $P > $T/b.txt 2>&1
  echo "flags=$k rep=$i :: $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $T/b.txt | head -1 | sed -e 's/, input seed.*//' -e 's/.*: thr/thr/')"
done; done
export AUTOTUNE_WORKER=$PWD/build/autotune
AT_GPU_DOWN=1 AT_GPU_FLAT=1 AT_GPU_ONLY='reduce_f16_*,reduce_bf16_*,reduce_f64_*' timeout 240 build/tests/gpu_reduce-rel > $OUT/flat_16_64.tap 2>&1
echo "== gpu_reduce flat f16 bf16 f64 rc=$? ok=$(grep -c '^ok' $OUT/flat_16_64.tap) notok=$(grep -c '^not ok' $OUT/flat_16_64.tap)"
grep -E "FAILED|^# reduce .*failed" $OUT/flat_16_64.tap | grep -v " 0 failed" | head -5 | cut -c1-300
grep -E "points verified" $OUT/flat_16_64.tap
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
AT_GPU_SAMPLE=10 AT_GPU_DOWN=1 AT_GPU_FLAT=1 AT_GPU_ONLY='reduce_f32_max,reduce_bf16_amax,reduce_f16_sumsq' timeout 150 $CS --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_reduce-rel > $OUT/memcheck_flat.txt 2>&1
echo "== memcheck flat rc=$? $(grep -E 'ERROR SUMMARY' $OUT/memcheck_flat.txt | sort | uniq -c | tr '\n' ' ') $(grep -c '^ok' $OUT/memcheck_flat.txt) ok"
grep -E "points verified" $OUT/memcheck_flat.txt
echo END
