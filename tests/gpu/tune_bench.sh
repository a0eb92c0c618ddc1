#!/bin/sh
# The tuning benchmark (`make gpu-tune-bench`). For 8192 x 8192 f32 and f64, from
# empty caches: a cold tune (every variant compiled; NVRTC's own on-disk
# cache off, so cold means cold), recorded to CSV; three warm tunes (the
# compiled-variant cache full, --retune); a cache hit. For f32 also the
# three other strategies live with a budget of 15% of the space, and the
# replay of the record. A table last. Records and JSON summaries go to
# $BENCH_OUT (default: a temporary directory, removed).
# Usage: tests/gpu/tune_bench.sh [extra autotune flags]
cd "$(dirname "$0")/../.." || exit 1
T=$(mktemp -d)
OUTDIR=${BENCH_OUT:-$T}
mkdir -p "$OUTDIR"
export CUDA_CACHE_DISABLE=1
A=build/autotune
fail() { cat "$1"; exit 1; }
for t in f32 f64; do
    export AUTOTUNE_CACHE="$T/$t/cache.db"
    mkdir -p "$T/$t"
    run() { # name, flags...
        n=$1; shift
        $A transpose --arch auto --type $t -o "$T/$t.cu" --json "$@" \
            > "$OUTDIR/$t-$n.json" 2> "$T/$t-$n.err" || fail "$T/$t-$n.err"
        grep -v '^\[' "$T/$t-$n.err" | sed "s/^/[$t $n] /"
    }
    run cold --record "$OUTDIR/$t-exhaustive.csv"
    for k in 1 2 3; do run warm$k --retune; done
    run hit
    if [ $t = f32 ]; then
        n=$(python3 -c "import json;print(json.load(open('$OUTDIR/f32-cold.json'))['space_size'])")
        b=$((n * 15 / 100))
        for s in random local genetic; do
            run $s --retune --strategy $s --budget $b --seed 7
        done
        $A replay "$OUTDIR/f32-exhaustive.csv" --seeds 100 \
            > "$OUTDIR/f32-replay.txt" || exit 1
    fi
done
$A replay "$OUTDIR/f64-exhaustive.csv" --seeds 100 \
    > "$OUTDIR/f64-replay.txt" || exit 1
cat "$OUTDIR/f32-replay.txt" "$OUTDIR/f64-replay.txt"
# Everything in one file for machines that return few files.
tar -C "$OUTDIR" -czf "$T/bench.tgz" . && mv "$T/bench.tgz" "$OUTDIR/"
echo
python3 - "$OUTDIR" <<'PY'
import json, sys, os
d = sys.argv[1]
print("type | run | tune s | variants/s | evaluated | compiled | from cache"
      " | NVRTC CPU-s | GPU s | best point | ms | GB/s | of copy")
for t in ("f32", "f64"):
    names = ["cold", "warm1", "warm2", "warm3", "hit"]
    if t == "f32":
        names += ["random", "local", "genetic"]
    wins = []
    for n in names:
        j = json.load(open(os.path.join(d, f"{t}-{n}.json")))
        if j["from_cache"]:
            print(f"{t} | {n} (cache hit) | {j['wall_s']:.2f} | | | | | | | "
                  f"{j['point']} | {j['median_ms']:.4f} | {j['gbps']:.0f} | "
                  f"{100 * j['frac_copy']:.1f}%")
            continue
        if n.startswith(("cold", "warm")):
            wins.append((j["point"], j["median_ms"]))
        print(f"{t} | {n} | {j['tune_s']:.1f} | {j['variants_per_s']:.0f} | "
              f"{j['evaluated']}/{j['space_size']} | {j['compiled']} | "
              f"{j['from_compile_cache']} | {j['nvrtc_cpu_s']:.0f} | "
              f"{j['gpu_s']:.1f} | {j['point']} | {j['median_ms']:.4f} | "
              f"{j['gbps']:.0f} | {100 * j['frac_copy']:.1f}%")
    lo = min(m for _, m in wins)
    print(f"{t} winners of the exhaustive runs: " + "; ".join(
        f"{p} {m:.4f} ms (+{100 * (m / lo - 1):.2f}%)" for p, m in wins))
PY
rm -rf "$T"
