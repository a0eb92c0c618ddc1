#!/bin/bash
# Tiles take the read-only loads alone (the ldg pair dropped): cold tunes
# of f32 and f64 8192x8192, fc1b213 against the tree, alternated; the
# tuning benchmark of the tree; a sweep of 10 drawn at seed 2782368029,
# exhaustive, fc1b213 then the tree.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home PATH=/usr/local/cuda/bin:$PATH; mkdir -p $HOME
OLD=$PWD/gpurun/bins/autotune-fc1b213 NEW=$PWD/build/autotune
R=$OUT/r51; mkdir -p $R
for i in 1 2; do
  ord="old new"; [ $i = 2 ] && ord="new old"
  ORDER="$ord" KEEP=$R/cb$i sh tests/gpu/compare_builds.sh $OLD $NEW > $R/cb$i.txt 2>&1
  echo "== f32 8192 cold, order $ord"; cat $R/cb$i.txt
done
ORDER="new old" KEEP=$R/cb-f64 sh tests/gpu/compare_builds.sh $OLD $NEW --type f64 --rows 8192 --cols 8192 > $R/cb-f64.txt 2>&1
echo "== f64 8192 cold"; cat $R/cb-f64.txt
echo "== tune bench (tree) $(( $(date +%s) - T0 )) s"
BENCH_OUT=$R/tb timeout 150 sh tests/gpu/tune_bench.sh 2> $R/tune-bench.txt; echo rc=$?
cat $R/tune-bench.txt | tail -12
echo "== sweep A/B $(( $(date +%s) - T0 )) s"
KEEP=$R/sweep timeout 330 sh tests/gpu/compare_bench.sh $OLD $NEW transpose 10 2782368029 --strategy exhaustive > $R/sweep-ab.txt 2>&1; echo rc=$?
cat $R/sweep-ab.txt | cut -c1-200
rm -f $R/cb*/*record.csv.gz; gzip -q $R/cb*/*record.csv 2>/dev/null
tar czf $OUT/r51.tgz -C $OUT r51 && rm -rf $R
echo "END $(( $(date +%s) - T0 )) s"
