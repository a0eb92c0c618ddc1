#!/bin/bash
# The GPU suite's two long parts, each in what is left of one call:
# gpu_reduce (the release build: ASan's outlasted a call) and kt_examples.
set -u
TGZ=build/carry.tgz LIMIT=590 bash gpurun/gpusuite.sh build/tests/gpu_reduce-rel tests/gpu/kt_examples.sh
tar czf /tmp/go42.tgz -C $OUT . 2>/dev/null; mv /tmp/go42.tgz $OUT/
