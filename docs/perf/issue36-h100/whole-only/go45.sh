#!/bin/bash
# The emitted launcher of a whole-tile kernel on other shapes: the tuned
# kernel on the whole tiles, the plain one on the strips past them
# (general.sh, bit for bit, batched too); what it costs against the copy
# (tplain); the many-size file and the examples through nvcc.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
tar xzf build/p45.tgz
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W/r
for t in tests/gpu/general.sh tests/gpu/multi_size.sh tests/gpu/examples.sh; do
  n=$(basename $t .sh); d=/tmp/g-$n; rm -rf $d; mkdir -p -m 700 $d; s=$SECONDS
  AT_GPU_TMP=$d timeout 200 sh tests/gpu/run.sh $t > $W/r/$n.tap 2>&1
  echo "== $n rc=$? $((SECONDS - s)) s"
  grep -E "^ *(ok|not ok)|wrong|point" $W/r/$n.tap | cut -c1-160 | tail -16
done
mkdir -p -m 700 $W/c
AUTOTUNE_CACHE=$W/c/c.db timeout 100 build/autotune transpose --arch auto --size 8192x8192 --name gen --quiet -o $W/new.cu > /dev/null 2>&1
echo "== new: $(grep -m1 '^ \* point:' $W/new.cu)"
nvcc -O3 -arch=native -DGEN=gen -o $W/tp gpurun/tplain.cu $W/new.cu && $W/tp 8192 8192 8192 8100 8100 8192 8191 8191 4096 8192 | tee $W/r/plain-split.txt
tar czf $OUT/go45.tgz -C $W r
echo END $SECONDS
