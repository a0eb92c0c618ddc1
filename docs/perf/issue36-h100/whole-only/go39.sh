#!/bin/bash
# Whole-tile kernels without the element path (the tree) against e1c7baa:
# every tile point verified (each with every path, and with a whole-tile
# problem's own on the shapes it takes), cold f32 8192x8192 tunes
# alternated, the emitted launcher's plain kernel (general.sh), the API on
# buffers off the vectors (gpu_api), the nvcc crosscheck, multi_size.
set -u
nvidia-smi -L; lscpu | grep -E "^CPU\(s\)|^Thread"
export HOME=/tmp/home; mkdir -p $HOME
tar xzf build/p39.tgz
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W/r
s=$SECONDS
AT_GPU_TESTS='every_point_*' timeout 300 build/tests/gpu_variants-rel > $W/r/every_point.tap 2>&1
echo "== every_point rc=$? $((SECONDS - s)) s"
grep -E "^(ok|not ok)|FAILED|verified on" $W/r/every_point.tap | cut -c1-160
tune() { # tag binary args...
  local tag=$1 bin=$2; shift 2
  mkdir -p -m 700 $W/c-$tag
  AUTOTUNE_WORKER=$PWD/$bin AUTOTUNE_CACHE=$W/c-$tag/c.db CUDA_CACHE_DISABLE=1 timeout 100 $bin transpose --arch auto --no-compile-cache --json -o $W/$tag.cu "$@" > $W/r/$tag.json 2> $W/r/$tag.err
  echo "$tag rc=$? $(python3 gpurun/sum.py $W/r/$tag.json)"
}
for r in 1 2; do
  tune old-$r gpurun/autotune-old --size 8192x8192
  tune new-$r build/autotune --size 8192x8192
done
for t in tests/gpu/general.sh build/tests/gpu_api tests/gpu/multi_size.sh; do
  left=$((570 - SECONDS)); n=$(basename $t .sh)
  [ $left -lt 40 ] && { echo "== $n skipped: ${left}s left"; continue; }
  d=/tmp/g-$n; rm -rf $d; mkdir -p -m 700 $d
  s=$SECONDS
  AT_GPU_TMP=$d timeout $left sh tests/gpu/run.sh $t > $W/r/$n.tap 2>&1
  echo "== $n rc=$? $((SECONDS - s)) s"
  grep -E "^ *(ok|not ok)|^#.*(wrong|vec|element|tuned in)|^Result" $W/r/$n.tap | cut -c1-180 | tail -22
  [ $n = general ] && [ $SECONDS -lt 330 ] && {
    echo "== crosscheck f32:8192x8192"
    timeout 90 sh tests/gpu/crosscheck.sh f32:8192x8192 > $W/r/crosscheck.txt 2>&1
    grep -E "^crosscheck|autotune bench: [0-9]|emitted point" $W/r/crosscheck.txt | cut -c1-200; }
done
tar czf $OUT/go39.tgz -C $W r
echo END $SECONDS
