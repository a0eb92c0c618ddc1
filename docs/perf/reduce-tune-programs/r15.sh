#!/bin/bash
# The programs' aliases: a warm tune finds every point in the
# compiled-variant cache; the suites that tune (faults: planted points,
# restart, json, bench_smoke).
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
export CUDA_CACHE_DISABLE=1
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W
export AUTOTUNE_WORKER=$PWD/build/autotune
for run in cold warm; do
  extra=""; [ $run = warm ] && extra=--retune
  AUTOTUNE_CACHE=$W/c.db AUTOTUNE_CUBIN_CACHE=$W/cubins.db timeout 60 build/autotune reduce --arch auto --type f32 --op max --axis rows --rows 449061 --cols 81 -o $W/r.cu $extra > $W/$run.txt 2>&1
  echo "$run rc=$?: $(grep -E 'tuned in' $W/$run.txt | tail -1 | cut -c1-330)"
done
export AT_GPU_TMP=$W ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp"
timeout 300 prove -v tests/gpu/faults.sh tests/gpu/restart.sh tests/gpu/json.sh tests/gpu/bench_smoke.sh > $OUT/suites.txt 2>&1
echo "== suites rc=$?"; grep -E "^(ok|not ok)|^Result|^Files|^t/|\.sh \.\." $OUT/suites.txt | head -40
echo END
