#!/bin/bash
# The GPU suite (tests/gpu/run.sh) in parts that fit a call: each test
# under the time left, its TAP kept in $OUT. Arguments: the tests.
set -u
nvidia-smi -L
tar xzf ${TGZ:-build/carry.tgz}
export HOME=/tmp/home; mkdir -p $HOME
LIMIT=${LIMIT:-585}
for t in "$@"; do
  left=$((LIMIT - SECONDS))
  n=$(basename $t .sh)
  if [ $left -lt 30 ]; then echo "== $n skipped: ${left}s left"; continue; fi
  d=/tmp/g-$n; rm -rf $d; mkdir -p -m 700 $d
  s=$SECONDS
  AT_GPU_TMP=$d timeout $left sh tests/gpu/run.sh $t > $OUT/$n.tap 2>&1
  rc=$?
  echo "== $n rc=$rc $((SECONDS - s)) s"
  grep -E "^(ok|not ok)|^Result|Failed|# SKIP|SUMMARY" $OUT/$n.tap | tail -25
done
echo END $SECONDS
