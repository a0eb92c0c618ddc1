#!/bin/bash
# bench tune (the README's table), the tree against e1c7baa on one lease
# (tree, e1c7baa, tree); then the nvcc crosscheck, f32 8192x8192 three
# times (the last call's program read 1.6 points under the bench), f64
# and u8 8192x8192 (kernels without the element path, vectors > 4 bytes).
set -u
nvidia-smi -L; lscpu | grep -E "^CPU\(s\)|^Thread"
export HOME=/tmp/home; mkdir -p $HOME
tar xzf build/p39.tgz
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W/r
bt() { # tag binary
  local s=$SECONDS
  AUTOTUNE_WORKER=$PWD/$2 timeout 150 $2 bench tune --csv $W/r/tune-$1.csv --json > $W/r/bench-tune-$1.json 2> $W/r/bench-tune-$1.log
  echo "== bench tune $1 rc=$? $((SECONDS - s)) s"
  grep -E "^NVIDIA|calibrate|cold|warm|hit" $W/r/bench-tune-$1.log | grep -vE "^\[|then:" | tail -12 | cut -c1-200
}
bt tree-1 build/autotune
bt old gpurun/autotune-old
bt tree-2 build/autotune
for P in f32:8192x8192 f32:8192x8192 f32:8192x8192 f64:8192x8192 u8:8192x8192; do
  [ $SECONDS -gt 520 ] && { echo "== $P skipped (time)"; continue; }
  echo "== $P"
  timeout 75 sh tests/gpu/crosscheck.sh $P 2>&1 | tail -12
done | tee $W/r/crosscheck.txt | grep -E "^==|^crosscheck|autotune bench: [0-9]|emitted point" | cut -c1-250
tar czf $OUT/go40.tgz -C $W r
echo END $SECONDS
