#!/bin/sh
# The GPU suite (`make gpu-check`, or this script where the binaries were
# built elsewhere and carried; `sh tests/gpu/run.sh TEST...` runs some): every point verified, the API, the cache
# across processes, the examples, users' kernels from spec files. Needs a
# CUDA GPU; skips without one.
cd "$(dirname "$0")/../.." || exit 1
AT_GPU_TMP=${AT_GPU_TMP:-$(mktemp -d)}
export AT_GPU_TMP
# protect_shadow_gap=0: the CUDA driver maps memory where ASan's shadow gap
# would be.
export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp"
export UBSAN_OPTIONS=print_stacktrace=1
# The API's tunes run in this build's autotune (runtime/plan/plan.h).
export AUTOTUNE_WORKER=${AUTOTUNE_WORKER:-$PWD/build/autotune}
# Arguments: some of the suite's tests only (on an H100 the whole suite
# takes about 16 minutes, sanitize.sh 6 of them; a lease's call has 10).
[ $# -gt 0 ] || set -- build/tests/gpu_variants build/tests/gpu_reduce build/tests/gpu_api build/tests/gpu_runtime \
    tests/gpu/examples.sh tests/gpu/json.sh tests/gpu/bench_smoke.sh \
    tests/gpu/faults.sh tests/gpu/restart.sh tests/gpu/specs.sh \
    tests/gpu/kt_examples.sh tests/gpu/multi_size.sh tests/gpu/general.sh \
    tests/gpu/tune_list.sh tests/gpu/hit_memo.sh \
    tests/gpu/sanitize.sh \
    tests/gpu/python.sh
exec prove -v "$@"
