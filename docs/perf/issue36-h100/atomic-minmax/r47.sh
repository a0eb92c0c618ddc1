#!/bin/bash
# Every point's time (--record) of min/max/amax tunes: do atomic points
# ever lose to their twins with the last block's or a second pass's
# combine? (If not, those two go from min/max/amax spaces.)
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
W=$(mktemp -d); mkdir -p $W/rec
cat > $W/list <<'L'
--type f64 --op min --axis rows --rows 132920 --cols 61 --ld 89
--type f32 --op max --axis rows --rows 449061 --cols 81
--type bf16 --op amax --axis rows --rows 354052 --cols 150
--type f32 --op min --axis rows --rows 13635 --cols 1432
--type f32 --op max --axis all --n 268435456
--type f16 --op max --axis cols --rows 1112 --cols 100609
--type i32 --op min --axis rows --rows 29372 --cols 1080
--type f64 --op max --axis all --n 33221437
--type f32 --op amax --axis rows --rows 16384 --cols 16384
--type bf16 --op min --axis cols --rows 64 --cols 4194304
L
i=0
while read -r P; do
  i=$((i+1))
  [ $(( $(date +%s) - T0 )) -lt 400 ] || break
  AUTOTUNE_CACHE=$W/c$i.db timeout 60 build/autotune reduce --arch auto $P --record $W/rec/r$i.csv -o $W/x.cu --quiet > $W/rec/t$i.txt 2>&1
  echo "[$i] rc=$? $P $(wc -l < $W/rec/r$i.csv) rows"
done < $W/list
tar czf $OUT/rec.tgz -C $W rec
echo "END $(( $(date +%s) - T0 )) s"
