#!/bin/bash
# Skewed stores' whole rows, stepped put_extra addresses, one division a
# tile: every point verified, memcheck on a sample, then an A/B.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export AUTOTUNE_WORKER=$PWD/build/autotune
R=$OUT/r2; mkdir -p $R
for T in every_point_1_byte every_point_2_bytes every_point_4_bytes every_point_8_bytes every_point_16_bytes every_point_1_byte_rows_off_sectors every_point_2_bytes_rows_off_sectors 'medium_thin_points_*'; do
  s0=$SECONDS
  AT_GPU_TESTS="$T" timeout 200 build/tests/gpu_variants-rel > "$R/gv-${T%_\*}.tap" 2>&1
  echo "== $T rc=$? $((SECONDS - s0)) s"; grep -E "^(ok|not ok)|FAILED" "$R/gv-${T%_\*}.tap" | cut -c1-140
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for T in every_point_1_byte every_point_2_bytes; do
  s0=$SECONDS
  AT_GPU_TESTS=$T AT_GPU_SAMPLE=40 timeout 90 $CS --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_variants-rel > $R/memcheck-$T.txt 2>&1
  echo "== memcheck $T every 40th rc=$? $((SECONDS - s0)) s"; grep -E "^(ok|not ok)|ERROR SUMMARY" $R/memcheck-$T.txt | head -5
done
tar czf $OUT/r2.tgz -C $OUT r2 && rm -rf $R
echo END
