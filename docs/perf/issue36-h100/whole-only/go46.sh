#!/bin/bash
# One point, e1c7baa's template against the tree's, built by nvcc as a
# user builds the emitted .cu: tile64x128_blk16x32_ept16_vec1_swz (the
# point the tree's tunes picked 4 times of 11, and whose nvcc build read
# 1.5 points under autotune bench) and tile64x128_blk32x32_ept8_vec1_pad1,
# f32 8192x8192, alternated three times.
set -u
nvidia-smi -L
for f in old-swz new-swz old-pad new-pad; do
  nvcc -O3 -arch=native -DGEN=autotune_transpose_f32 -o /tmp/tp-$f gpurun/tplain.cu gpurun/pt/$f.cu || echo "build $f failed"
done
for r in 1 2 3; do
  for f in old-swz new-swz old-pad new-pad; do
    echo "$r $f $(/tmp/tp-$f 8192 8192 8191 8191)"
  done
done | tee $OUT/points.txt
echo END $SECONDS
