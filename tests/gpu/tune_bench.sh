#!/bin/sh
# The tuning benchmark (`make gpu-tune-bench`): `autotune bench tune`, cold,
# warm and cache-hit runs of 8192 x 8192 f32 and f64 on empty caches of
# their own, NVRTC's on-disk cache off. The CSV (<gpu>-tune.csv) and the
# JSON summary go to $BENCH_OUT (default docs/perf/); the table last.
# Usage: tests/gpu/tune_bench.sh [extra bench tune flags]
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
OUTDIR=${BENCH_OUT:-$ROOT/docs/perf}
mkdir -p "$OUTDIR" || exit 1
cd "$OUTDIR" || exit 1
"$ROOT/build/autotune" bench tune --json "$@" > bench-tune.json || exit 1
python3 - bench-tune.json <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print(f"\n{j['gpu']}: {j['csv']}")
print("type | cache | wall s | variants/s | NVRTC CPU-s | compiled | best ms | point")
for r in j["runs"]:
    f = lambda k, fmt: format(r[k], fmt) if r.get(k) is not None else ""
    print(f"{r['type']} | {r['cache']} | {r['wall_s']:.2f} | "
          f"{f('variants_per_s', '.0f')} | {f('nvrtc_cpu_s', '.0f')} | "
          f"{r.get('compiled', '')} | {r['best_ms']:.4f} | {r['point']}")
PY
