#!/bin/bash
# A second lease for issue 36 item 4: the tuning benchmark, then the
# README's main command as a user runs it (empty caches, NVRTC's disk
# cache off), timed whole, then three hits in new processes.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nproc
export PATH=/usr/local/cuda/bin:$PATH
export HOME=/tmp/home-tb; mkdir -p $HOME
R=$OUT/r54; mkdir -p $R
BENCH_OUT=$R/tb timeout 150 sh tests/gpu/tune_bench.sh 2> $R/tune-bench.txt; echo "tune bench rc=$?"
tail -9 $R/tune-bench.txt
export HOME=/tmp/home-user CUDA_CACHE_DISABLE=1; mkdir -p $HOME
cd $(mktemp -d)
TIMEFORMAT="%R s wall, %U s user, %S s sys"
echo "== quick start, cold"
{ time $OLDPWD/build/autotune transpose --arch auto > $R/quick-cold.txt 2>&1; } 2>&1
grep -E "tuned in|NVRTC|median" $R/quick-cold.txt | cut -c1-200
for i in 1 2 3; do
  echo "== hit $i"; sleep 1
  { time $OLDPWD/build/autotune transpose --arch auto > $R/quick-hit$i.txt 2>&1; } 2>&1
done
ls -la *.cu | head -2
tar czf $OUT/r54.tgz -C $OUT r54 && rm -rf $R
echo "END $(( $(date +%s) - T0 )) s"
