#!/bin/bash
# Flat column points: every down-column reduce point verified (both
# shapes, check problems, twice the same bits), then HEAD against the
# tree on column problems, each cold in its own cache, alternated.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W/old $W/new
if [ "${VLIM:-0}" -gt 0 ]; then
AT_GPU_DOWN=1 AT_GPU_SAMPLE=${SAMPLE:-1} timeout $VLIM build/tests/gpu_reduce-rel > $OUT/gpu_reduce_down.tap 2>&1
echo "== gpu_reduce down rc=$? ok=$(grep -c '^ok' $OUT/gpu_reduce_down.tap) notok=$(grep -c '^not ok' $OUT/gpu_reduce_down.tap)"
grep -E "FAILED" $OUT/gpu_reduce_down.tap | head -5 | cut -c1-300
grep -E "^# reduce .*(cols=47|cols=512)" $OUT/gpu_reduce_down.tap | awk '{print $3,$4,$NF-0, $(NF-3)}' | tr '\n' ';'; echo
fi
run() { # name bin args...
  local n=$1 b=$2; shift 2; local f=$W/$n/$(echo "$*" | tr ' -' '__')
  AUTOTUNE_WORKER=$PWD/$b AUTOTUNE_CACHE=$W/$n/c.db timeout 50 $b bench reduce --csv $f.csv "$@" > $f.txt 2>&1
  echo "$n rc=$? $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $f.txt | head -1 | sed 's/^\[1\/1\] //; s/ (tuned in \([0-9.]*\) s)/ \1s/; s/, input seed.*//' | cut -c1-170)"
}
while read -r P; do
  [ -z "$P" ] && continue
  [ -n "${OLD:-}" ] && run old gpurun/autotune-head $P
  run new build/autotune $P
done <<< "${LIST:-}"
tar czf $OUT/r2.tgz --exclude='*.db*' -C $W old new
echo END
