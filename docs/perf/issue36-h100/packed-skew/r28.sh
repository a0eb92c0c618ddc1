#!/bin/bash
# Final code of the packed skew: 1-, 2- and 16-byte points verified;
# records of three byte problems for the next step; random 1- and 2-byte
# problems drawn now, HEAD (e70bdd7) then the change, each cold; last
# session's unrun reduce checks (other_devices, the once-per-device SM
# query through the emitted launcher).
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W/old $W/new $W/rec
for T in every_point_1_byte every_point_2_bytes every_point_16_bytes; do
  s0=$SECONDS
  AT_GPU_TESTS=$T timeout 120 build/tests/gpu_variants-rel > $OUT/variants-$T.tap 2>&1
  echo "== $T rc=$? $((SECONDS - s0)) s"; grep -E "^(ok|not ok)|FAILED|^# [a-z0-9]+:" $OUT/variants-$T.tap | cut -c1-120
done
for P in "u8 22119 17643 17643" "i8 16384 16384 16384" "i8 8192 8192 8193"; do
  set -- $P
  AUTOTUNE_CACHE=$W/rec/c.db timeout 60 build/autotune transpose --arch auto --type $1 --rows $2 --cols $3 --ld-in $4 -o $W/rec/t.cu --quiet --record $OUT/record-$1-$2x$3-$4.csv > /dev/null 2>&1
  echo "record $P rc=$?"
done
run() { # name bin args...
  local n=$1 b=$(readlink -f $2); shift 2; local f=$W/$n/$(echo "$*" | tr ' -' '__')
  AUTOTUNE_WORKER=$b AUTOTUNE_CACHE=$W/$n/c.db AUTOTUNE_CUBIN_CACHE=$W/$n/cub.db timeout 60 $b bench transpose --csv $f.csv "$@" > $f.txt 2>&1
  echo "$n rc=$? $*: $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $f.txt | head -1 | cut -c1-200)"
}
python3 gpurun/randlist.py $(od -An -N4 -tu4 /dev/urandom) 8 > $W/list.txt 2> $OUT/seed.txt
cat $OUT/seed.txt; cp $W/list.txt $OUT/list.txt
while read -r P; do
  [ $SECONDS -lt 420 ] || { echo "skipped (time): $P"; continue; }
  run old gpurun/autotune-e70 $P
  run new build/autotune $P
done < $W/list.txt > $OUT/ab-random.txt 2>&1
cat $OUT/ab-random.txt
left=$(( 520 - SECONDS )); [ $left -gt 10 ] || left=10
AT_GPU_DOWN=1 AT_GPU_FLAT=1 AT_GPU_ONLY='reduce_f32_sum,reduce_bf16_amax' timeout $left build/tests/gpu_reduce-rel > $OUT/reduce-flat.tap 2>&1
echo "== reduce flat rc=$?"; grep -E "^(ok|not ok)|FAIL|waves|other" $OUT/reduce-flat.tap | head -8 | cut -c1-200
left=$(( 590 - SECONDS )); [ $left -gt 10 ] || left=10
timeout $left sh tests/gpu/crosscheck_reduce.sh f32 rows 451023 202 > $OUT/xr.txt 2>&1
echo "== crosscheck_reduce rc=$?"; grep -vE "^\s*$" $OUT/xr.txt | tail -4 | cut -c1-220
echo END
