#!/bin/bash
# Column combine with loads in flight: a sample of every reduce point
# verified, then HEAD against the tree on column problems, each cold in
# its own cache, alternated.
set -u
nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W/old $W/new
AT_GPU_SAMPLE=${SAMPLE:-4} timeout ${VLIM:-200} build/tests/gpu_reduce-rel > $OUT/gpu_reduce.tap 2>&1
echo "== gpu_reduce rc=$?"; grep -E "^(not ok)|FAILED" $OUT/gpu_reduce.tap | head; grep -c "^ok" $OUT/gpu_reduce.tap; grep "points verified" $OUT/gpu_reduce.tap | head -30 | awk '{print $2,$3,$4}' | tr '\n' ';'; echo
run() { # name bin args...
  local n=$1 b=$2; shift 2; local f=$W/$n/$(echo "$*" | tr ' -' '__')
  AUTOTUNE_WORKER=$PWD/$b AUTOTUNE_CACHE=$W/$n/c.db timeout 45 $b bench reduce --csv $f.csv "$@" > $f.txt 2>&1
  echo "$n rc=$? $*: $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $f.txt | head -1 | sed 's/^\[1\/1\] //' | cut -c1-200)"
}
while read -r P; do
  [ -z "$P" ] && continue
  run old gpurun/autotune-head $P
  run new build/autotune $P
done <<'LIST'
--type f32 --op min --axis rows --rows 13635 --cols 1432
--type f64 --op min --axis rows --rows 132920 --cols 61 --ld 89
--type i32 --op sum --axis rows --rows 29372 --cols 1080
--type f64 --op sum --axis rows --rows 39604 --cols 340
--type bf16 --op max --axis rows --rows 1071940 --cols 464
--type f32 --op min --axis rows --rows 135194 --cols 1009
--type f16 --op sumsq --axis rows --rows 1015457 --cols 47
--type f16 --op max --axis rows --rows 187725 --cols 161 --ld 162
LIST
tar czf $OUT/r1.tgz -C $W old new --exclude='*.db*'
echo END
