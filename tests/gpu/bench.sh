#!/bin/sh
# The tuning benchmark (`make gpu-bench`): `autotune transpose --arch auto`
# for 8192 x 8192 f32 and f64 from an empty cache, then again from the
# cache; a table last. Usage: tests/gpu/bench.sh [extra autotune flags]
cd "$(dirname "$0")/../.." || exit 1
T=$(mktemp -d)
export AUTOTUNE_CACHE="$T/bench.db"
now() { date +%s.%N; }
rows=""
for t in f32 f64; do
    a=$(now)
    build/autotune transpose --arch auto --type $t -o "$T/$t.cu" "$@" \
        > "$T/$t.out" || { cat "$T/$t.out"; exit 1; }
    b=$(now)
    build/autotune transpose --arch auto --type $t -o "$T/$t.cu" --quiet \
        "$@" > "$T/$t.hit" || { cat "$T/$t.hit"; exit 1; }
    c=$(now)
    cat "$T/$t.out" "$T/$t.hit"
    rows="$rows$(awk -v t=$t -v tune="$(awk "BEGIN{print $b - $a}")" \
        -v hit="$(awk "BEGIN{print $c - $b}")" '
        /^autotune: .* on / { sub(/ \(sm_.*/, ""); sub(/.* on /, ""); gpu = $0 }
        /tuned in/ { pts = $5; comp = $11; cf = $13; wrong = $18 }
        /time: NVRTC/ { nv = $3; thr = $6; gpus = $12 }
        /best:/ { best = $2 }
        /median/ { ms = $2; gbps = $4; frac = $6; copy = $11; sub(/\(/, "", copy) }
        END { printf "%s | %s | %.1f | %.2f | %s | %s | %s | %s | %s | %s | %s | %s | %s on %s | %s\n",
              t, gpu, tune, hit, pts, cf + wrong, best, ms, gbps, frac, copy,
              comp, nv, thr, gpus }' "$T/$t.out")
"
done
echo
echo "type | gpu | tune s | cache-hit s | points | failed | best point | ms | GB/s | of copy | copy GB/s | compiled | NVRTC CPU-s on threads | GPU s"
printf '%s' "$rows"
rm -rf "$T"
