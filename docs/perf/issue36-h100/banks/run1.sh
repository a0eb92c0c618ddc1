#!/bin/bash
# Packed padded tiles laid out by their banks (gen/transpose_smem.c):
# every 1- and 2-byte point verified bit for bit (gpu_variants, those
# tests alone), memcheck on a sample, then the A/B of build.sh's binaries
# (carry gpurun/banks and build/tests): the 1-byte and f16 winners with
# one unit of padding a row (old) and the chosen layout (new), nvcc-built
# as a user links the emitted .cu, two rounds.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export AUTOTUNE_WORKER=$PWD/build/autotune
R=$OUT/r1; mkdir -p $R
X=gpurun/banks
for round in 1 2; do
  for v in w_old w_new; do
    for s in "19194 22735" "22119 17643" "16384 16384"; do
      echo "$round $v $($X/$v $s 2>&1 | grep -o 'crosscheck.*' | sed 's/crosscheck //')"
    done
  done
  for v in h_old h_new; do echo "$round $v $($X/$v 579 380071 2>&1 | grep -o 'crosscheck.*' | sed 's/crosscheck //')"; done
done
for T in every_point_1_byte every_point_2_bytes every_point_1_byte_rows_off_sectors every_point_2_bytes_rows_off_sectors 'medium_thin_points_1*' 'medium_thin_points_2*'; do
  s0=$SECONDS
  n=$(echo "$T" | tr -d '*')
  AT_GPU_TESTS="$T" timeout 150 build/tests/gpu_variants-rel > "$R/gv-$n.tap" 2>&1
  echo "== $T rc=$? $((SECONDS - s0)) s"; grep -E "^(ok|not ok)|FAILED|^# (i8|u8|f16|bf16):" "$R/gv-$n.tap" | cut -c1-150
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for T in every_point_1_byte every_point_2_bytes; do
  s0=$SECONDS
  AT_GPU_TESTS=$T AT_GPU_SAMPLE=40 timeout 90 $CS --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_variants-rel > $R/memcheck-$T.txt 2>&1
  echo "== memcheck $T every 40th rc=$? $((SECONDS - s0)) s"; grep -E "^(ok|not ok)|ERROR SUMMARY" $R/memcheck-$T.txt | head -5
done
tar czf $OUT/r1.tgz -C $OUT r1 && rm -rf $R
echo END
