#!/bin/sh
# The tuning benchmark (`make gpu-tune-bench`): `autotune bench tune`, cold,
# warm and cache-hit runs of 8192 x 8192 f32 and f64 on empty caches of
# their own, NVRTC's on-disk cache off, after two rows timing this host's
# NVRTC on one fixed program (so that leases can be compared). The CSV (<gpu>-tune.csv) and the
# JSON summary (bench-tune.json) go to $BENCH_OUT (default docs/perf/);
# the table to stderr.
# Usage: tests/gpu/tune_bench.sh [extra bench tune flags]
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
OUTDIR=${BENCH_OUT:-$ROOT/docs/perf}
mkdir -p "$OUTDIR" && cd "$OUTDIR" || exit 1
exec "$ROOT/build/autotune" bench tune --json "$@" > bench-tune.json
