#!/bin/bash
# The rest of the GPU suite after the whole-tile change (b115acd): every
# tune now checks whole-tile kernels on whole shapes.
set -u
TGZ=build/carry.tgz LIMIT=585 bash gpurun/gpusuite.sh build/tests/gpu_runtime tests/gpu/examples.sh tests/gpu/json.sh tests/gpu/bench_smoke.sh tests/gpu/faults.sh tests/gpu/restart.sh tests/gpu/tune_list.sh tests/gpu/python.sh tests/gpu/specs.sh
tar czf $OUT/go41.tgz -C $OUT --exclude go41.tgz .
