#!/bin/bash
# RAN in r17.sh (r17.txt): not kept. Prepared 2026-11-28. The reduce strips'
# analogue of the transpose's tile order (488ad1c): down columns, blocks go
# out x (strip) first, y (segment) second, so the last strip's block of the
# last segment is the launch's last block; where the last column cuts that
# strip, one of its threads walks its segment element by element (its
# vector would pass the last column). r16/last-strip-first.patch takes the
# last strip first. The list: down-column misses of the sweeps whose last
# strip is cut for their winners' widths, one whose strips may not be
# (f32 min 874x21633, one-element vectors) and a whole one (f32 16384^2).
# Build first, on the build machine, from the repository root:
#   git worktree add /tmp/ls HEAD && cd /tmp/ls &&
#   patch -p1 < <(tail -n +2 docs/perf/issue36-h200/r16/last-strip-first.patch) &&
#   make -j2 build/autotune && cp build/autotune /work/main/gpurun/bins/autotune-laststrip
# and carry build/autotune and gpurun/bins/autotune-laststrip. Two rounds,
# alternated. Where it gains, the patch goes into the tree and gpu_reduce
# (down columns, every 3rd point) verifies it before it lands.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r16; mkdir -p $W && chmod 700 $W
export HOME=$W
for round in 1 2; do
  HOW=tune LIMIT=60 sh tests/gpu/bench_reduce_builds.sh docs/perf/issue36-h200/r16/list.txt \
    head=build/autotune last=gpurun/bins/autotune-laststrip
done | tee $W/ab.txt
echo END
