#!/bin/bash
# b5b62b6 on a GPU: tests/gpu/hit_memo.sh; the README's main command
# cold, then five hits from the memo and five through the driver,
# alternated; gpu_api under tests/gpu/run.sh (AT_GPU_TMP set).
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH
export AUTOTUNE_WORKER=$PWD/build/autotune
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
R=$OUT/r56; mkdir -p $R
timeout 150 sh tests/gpu/run.sh tests/gpu/hit_memo.sh > $R/hit_memo.tap 2>&1; echo "hit_memo rc=$?"
grep -E "^(ok|not ok)|wall|Result|# " $R/hit_memo.tap | head -30
echo "== quick start $(( $(date +%s) - T0 )) s"
W=$PWD
( export HOME=/tmp/home-q CUDA_CACHE_DISABLE=1; mkdir -p $HOME; unset XDG_CACHE_HOME AUTOTUNE_CACHE
Q=$(mktemp -d); cd $Q; mkdir m d
TIMEFORMAT="%R"
{ time $W/build/autotune transpose --arch auto > $R/quick-cold.txt 2>&1; } 2>&1 | sed 's/^/cold wall s: /'
grep -E "tuned in|NVRTC" $R/quick-cold.txt | cut -c1-160
ls -l $HOME/.cache/autotune/; cat $HOME/.cache/autotune/devices-*.txt
A=$W/build/autotune
for i in 1 2 3 4 5; do
  m=$( { time sh -c "cd m && $A transpose --arch auto > out.txt 2>&1"; } 2>&1 )
  d=$( { time sh -c "cd d && CUDA_VISIBLE_DEVICES=0 $A transpose --arch auto > out.txt 2>&1"; } 2>&1 )
  echo "hit $i: memo $m s, driver $d s"
done | tee $R/quick-hits.txt
tail -2 m/out.txt; tail -2 d/out.txt
grep -v emitted: m/transpose_f32_8192x8192.cu > m.x; grep -v emitted: d/transpose_f32_8192x8192.cu > d.x
cmp m.x d.x && echo "same .cu" )
echo "== gpu_api $(( $(date +%s) - T0 )) s"
timeout 300 sh tests/gpu/run.sh build/tests/gpu_api > $R/gpu_api.tap 2>&1; echo "gpu_api rc=$?"
grep -E "^(ok|not ok)" $R/gpu_api.tap | tr '\n' ' '; echo
grep -E "^Result|Files=" $R/gpu_api.tap
echo "END $(( $(date +%s) - T0 )) s"
