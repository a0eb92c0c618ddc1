#!/bin/bash
# smem 3 as an axis value (packed tiles padded by their banks, beside
# smem 1): every 1- and 2-byte point verified bit for bit, memcheck on a
# sample, then run2.sh's cold tunes, the build before (no smem 3) against
# this one. Carry build/autotune, build/tests/gpu_variants-rel,
# build/tests/lib, gpurun/banks.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export AUTOTUNE_WORKER=$PWD/build/autotune
R=$OUT/r4; mkdir -p $R
for T in every_point_1_byte every_point_2_bytes every_point_1_byte_rows_off_sectors every_point_2_bytes_rows_off_sectors 'medium_thin_points_1_*' 'medium_thin_points_2_*'; do
  s0=$SECONDS
  n=$(echo "$T" | tr -d '*')
  AT_GPU_TESTS="$T" timeout 150 build/tests/gpu_variants-rel > "$R/gv-$n.tap" 2>&1
  echo "== $T rc=$? $((SECONDS - s0)) s"; grep -E "^(ok|not ok)|FAILED|^# (i8|u8|f16|bf16):" "$R/gv-$n.tap" | cut -c1-110
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for T in every_point_1_byte every_point_2_bytes; do
  s0=$SECONDS
  AT_GPU_TESTS=$T AT_GPU_SAMPLE=40 timeout 90 $CS --tool memcheck --error-exitcode 99 --print-limit 20 build/tests/gpu_variants-rel > $R/memcheck-$T.txt 2>&1
  echo "== memcheck $T every 40th rc=$? $((SECONDS - s0)) s"; grep -E "^(ok|not ok)|ERROR SUMMARY" $R/memcheck-$T.txt | head -5
done
tar czf $OUT/r4.tgz -C $OUT r4 && rm -rf $R
bash docs/perf/issue36-h100/banks/run2.sh
