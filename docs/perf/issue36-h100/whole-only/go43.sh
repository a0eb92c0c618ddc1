#!/bin/bash
# kt_examples in a call of its own, then gpu_api again (api_general.c's
# retry after a failed load, since go39).
set -u
TGZ=build/carry.tgz LIMIT=590 bash gpurun/gpusuite.sh tests/gpu/kt_examples.sh build/tests/gpu_api
tar czf /tmp/go43.tgz -C $OUT . 2>/dev/null; mv /tmp/go43.tgz $OUT/
