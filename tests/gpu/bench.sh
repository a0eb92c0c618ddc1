#!/bin/sh
# The bandwidth benchmark (`make gpu-bench`): `autotune bench transpose`
# over its suite, from empty caches, on this machine's GPU. Writes
# $BENCH_OUT/<gpu>.csv (default docs/perf/, <gpu> as h100 or h200) and
# $BENCH_OUT/<gpu>-bench.log (the table and the progress), and prints the
# table last. Extra arguments go to autotune (for example --type f32
# --rows 8192 --cols 8192 for one problem).
cd "$(dirname "$0")/../.." || exit 1
OUT_DIR=${BENCH_OUT:-docs/perf}
mkdir -p "$OUT_DIR"
name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
case "$name" in
*H100*) gpu=h100 ;;
*H200*) gpu=h200 ;;
"") echo "bench: no GPU (nvidia-smi found none)" >&2; exit 1 ;;
*) gpu=$(printf '%s' "$name" | tr 'A-Z ' 'a-z-' | tr -cd 'a-z0-9-') ;;
esac
T=$(mktemp -d)
export AUTOTUNE_CACHE="$T/cache.db"
log="$OUT_DIR/$gpu-bench.log"
{
    echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $name, driver" \
        "$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
    echo "# build/autotune bench transpose --csv $OUT_DIR/$gpu.csv $*"
} > "$log"
build/autotune bench transpose --csv "$OUT_DIR/$gpu.csv" "$@" >> "$log" 2>&1
rc=$?
rm -rf "$T"
sed -n '/^shape /,$p' "$log"
[ $rc -eq 0 ] || tail -5 "$log"
exit $rc
