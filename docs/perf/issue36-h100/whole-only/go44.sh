#!/bin/bash
# After the review's fixes: every tile point again (a whole check shape
# now has output rows on the sectors), general.sh with 1 x INT_MAX, the
# API; then what the emitted launcher's plain kernel costs on shapes
# other than a whole-tile kernel's own, against e1c7baa's element copy.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
tar xzf build/p44.tgz
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W/r
s=$SECONDS
AT_GPU_TESTS='every_point_*' timeout 300 build/tests/gpu_variants-rel > $W/r/every_point.tap 2>&1
echo "== every_point rc=$? $((SECONDS - s)) s"
grep -E "^(ok|not ok)|FAILED" $W/r/every_point.tap | cut -c1-160
for t in tests/gpu/general.sh build/tests/gpu_api; do
  n=$(basename $t .sh); d=/tmp/g-$n; rm -rf $d; mkdir -p -m 700 $d; s=$SECONDS
  AT_GPU_TMP=$d timeout 150 sh tests/gpu/run.sh $t > $W/r/$n.tap 2>&1
  echo "== $n rc=$? $((SECONDS - s)) s"
  grep -E "^ *(ok|not ok)|wrong|vec" $W/r/$n.tap | cut -c1-160 | tail -14
done
for b in old new; do
  A=build/autotune; [ $b = old ] && A=gpurun/autotune-old
  mkdir -p -m 700 $W/c-$b
  AUTOTUNE_WORKER=$PWD/$A AUTOTUNE_CACHE=$W/c-$b/c.db timeout 100 $A transpose --arch auto --size 8192x8192 --name gen --quiet -o $W/$b.cu > /dev/null 2>&1
  echo "== $b: $(grep -m1 '^ \* point:' $W/$b.cu)"
  nvcc -O3 -arch=native -DGEN=gen -o $W/tp-$b gpurun/tplain.cu $W/$b.cu && $W/tp-$b 8192 8192 8192 8100 8100 8192 8191 8191 4096 8192 | tee $W/r/plain-$b.txt
done
tar czf $OUT/go44.tgz -C $W r
echo END $SECONDS
