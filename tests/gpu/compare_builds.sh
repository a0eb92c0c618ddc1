#!/bin/sh
# Two builds of autotune, one after the other in one session, on the same
# problem from empty caches (NVRTC's on-disk cache off): a cold exhaustive
# tune each, then each build's winner and the optimum of each space. For
# a change to the template or the compiler options: the optimum must be
# no slower, the tune faster. Needs a GPU. With KEEP=DIR, each build's
# summary and record are kept there (old-tune.json, old-record.csv, ...).
# ORDER="new old" runs the new build first.
# Usage: tests/gpu/compare_builds.sh OLD_AUTOTUNE NEW_AUTOTUNE [tune flags]
# (default flags: --type f32 --rows 8192 --cols 8192)
[ $# -ge 2 ] || { echo "usage: $0 OLD NEW [tune flags]" >&2; exit 2; }
OLD=$1 NEW=$2
shift 2
[ $# -gt 0 ] || set -- --type f32 --rows 8192 --cols 8192
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
export CUDA_CACHE_DISABLE=1
for b in ${ORDER:-old new}; do
    bin=$OLD
    [ $b = new ] && bin=$NEW
    mkdir -p "$T/$b"
    t0=$(date +%s.%N)
    AUTOTUNE_CACHE="$T/$b/cache.db" AUTOTUNE_CUBIN_CACHE="$T/$b/cubins.db" \
    AUTOTUNE_WORKER="$(readlink -f "$bin")" \
        "$bin" transpose --arch auto "$@" -o "$T/$b/t.cu" --json --quiet \
        --record "$T/$b/record.csv" > "$T/$b/tune.json" || exit 1
    t1=$(date +%s.%N)
    echo "$t0 $t1" > "$T/$b/wall"
    if [ -n "$KEEP" ]; then
        mkdir -p "$KEEP" && cp "$T/$b/tune.json" "$KEEP/$b-tune.json" &&
        cp "$T/$b/record.csv" "$KEEP/$b-record.csv" || exit 1
    fi
done
python3 - "$T" <<'PY'
import csv, json, sys, os
d = sys.argv[1]
print("build | wall s | tune s | variants/s | NVRTC CPU-s | GPU s | winner | ms | of copy | optimum of the record ms")
best = {}
for b in ("old", "new"):
    j = json.load(open(os.path.join(d, b, "tune.json")))
    t0, t1 = map(float, open(os.path.join(d, b, "wall")).read().split())
    rows = [r for r in csv.DictReader(open(os.path.join(d, b, "record.csv")))
            if r.get("status") == "ok"
            and r.get("median_ms") not in (None, "", "nan")]
    opt = min(rows, key=lambda r: float(r["median_ms"]))
    best[b] = float(opt["median_ms"])
    print(f"{b} | {t1 - t0:.1f} | {j['tune_s']:.1f} | {j['variants_per_s']:.0f} | "
          f"{j['nvrtc_cpu_s']:.0f} | {j['gpu_s']:.1f} | {j['point']} | "
          f"{j['median_ms']:.4f} | {100 * j['frac_copy']:.1f}% | "
          f"{best[b]:.4f} ({opt['point']})")
print(f"new optimum / old optimum: {best['new'] / best['old']:.4f}")
PY
