#!/bin/bash
# The host's memo of its GPUs: tests/gpu/hit_memo.sh; the README's main
# command cold, then five hits from the memo and five through the driver,
# alternated, each timed whole; gpu_api (the device opened whole, as
# before) as far as 60 s take it.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader
ls /proc/driver/nvidia/gpus/ 2>&1 | head -3
export PATH=/usr/local/cuda/bin:$PATH
export AUTOTUNE_WORKER=$PWD/build/autotune
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
R=$OUT/r55; mkdir -p $R
timeout 120 prove -v tests/gpu/hit_memo.sh > $R/hit_memo.tap 2>&1; echo "hit_memo rc=$?"
grep -E "^(ok|not ok)|wall s|Result" $R/hit_memo.tap
echo "== quick start $(( $(date +%s) - T0 )) s"
export HOME=/tmp/home-q CUDA_CACHE_DISABLE=1; mkdir -p $HOME; unset XDG_CACHE_HOME AUTOTUNE_CACHE
Q=$(mktemp -d); cd $Q; mkdir m d
TIMEFORMAT="%R"
{ time $OLDPWD/build/autotune transpose --arch auto > $R/quick-cold.txt 2>&1; } 2>&1 | sed 's/^/cold wall s: /'
grep -E "tuned in|NVRTC" $R/quick-cold.txt | cut -c1-160
cat $HOME/.cache/autotune/devices.txt
A=$OLDPWD/build/autotune
for i in 1 2 3 4 5; do
  m=$( { time sh -c "cd m && $A transpose --arch auto > /dev/null 2>&1"; } 2>&1 )
  d=$( { time sh -c "cd d && CUDA_VISIBLE_DEVICES=0 $A transpose --arch auto > /dev/null 2>&1"; } 2>&1 )
  echo "hit $i: memo $m s, driver $d s"
done | tee $R/quick-hits.txt
cmp m/transpose_f32_8192x8192.cu d/transpose_f32_8192x8192.cu && echo "same .cu"
cd $OLDPWD
echo "== gpu_api $(( $(date +%s) - T0 )) s"
ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp timeout 60 build/tests/gpu_api > $R/gpu_api.tap 2>&1; echo "gpu_api rc=$?"
grep -E "^(ok|not ok)" $R/gpu_api.tap | tr '\n' ' '; echo
tar czf $OUT/r55.tgz -C $OUT r55
echo "END $(( $(date +%s) - T0 )) s"
