#!/bin/bash
# First call on an H200 (2026-11-28): the span test prepared for the H100
# (issue36-h100/banks/run9.sh), then where the known misses stand on this
# card: 1- and 2-byte transposes and down-column reductions of a few
# hundred to a few thousand rows, each tuned cold. Carry build/autotune.
set -u
bash docs/perf/issue36-h100/banks/run9.sh
W=/tmp/r1; mkdir -p $W && chmod 700 $W
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
for prob in "i8 19194 22735" "u8 16384 16384" "bf16 49063 1855" "f16 8129983 15" "f32 8192 8192"; do
  set -- $prob
  rm -f $W/c.db* $W/cubins.db*
  AUTOTUNE_CACHE=$W/c.db AUTOTUNE_CUBIN_CACHE=$W/cubins.db timeout 90 build/autotune bench transpose \
    --type $1 --rows $2 --cols $3 --csv $W/x.csv > $W/x.log 2>&1
  echo "T $prob rc=$? $(awk -F, '$11=="tuned"{printf "tuned %.1f%%", $14*100} $11=="cublas"{printf " cublas %.1f%%", $14*100} $11=="memcpy"{printf " copy %.0f GB/s", $13}' $W/x.csv)"
  rm -f $W/x.csv
done
cat > $W/list.txt <<'L'
--type bf16 --op sum --axis rows --rows 5749 --cols 13821
--type f32 --op min --axis rows --rows 874 --cols 21633
--type f16 --op min --axis rows --rows 214 --cols 167994
--type bf16 --op amax --axis rows --rows 311697 --cols 1582
--type f32 --op max --axis rows --rows 449061 --cols 81
--type f32 --op sum --axis rows --rows 16384 --cols 16384
L
LOG=$OUT/reduce.log sh tests/gpu/bench_reduce_builds.sh $W/list.txt head=build/autotune
echo END
