#!/bin/sh
# Two builds' emitted .cu for the same problems, without a GPU: each
# build emits its default point (--arch sm_90, empty caches) for every
# element type on five shapes (square, odd, thin both ways, padded by
# primes), and the files are compared with comment lines aside (the
# version stamp and file paths named in comments differ by design). For
# a change that must not touch the generated kernels (issue 37's
# refactor): "0 differ". Usage: tests/compare_emit.sh OLD NEW
[ $# -eq 2 ] || { echo "usage: $0 OLD_AUTOTUNE NEW_AUTOTUNE" >&2; exit 2; }
OLD=$(readlink -f "$1") NEW=$(readlink -f "$2")
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
n=0 d=0
for t in i8 u8 f16 bf16 f32 f64 c64 c128 f32x4; do
    for s in 4099x2053 8192x8192 3x1000000 1000003x5 29x7919; do
        for b in old new; do
            bin=$OLD
            [ $b = new ] && bin=$NEW
            AUTOTUNE_CACHE="$T/$b.db" "$bin" transpose --arch sm_90 \
                --type $t --size $s -o "$T/$b.cu" --quiet >/dev/null 2>&1 ||
                { echo "$b: $t $s: emit failed" >&2; exit 1; }
            # Comment lines aside: /* ... */ blocks' lines and // lines.
            sed -e '/^ *\(\/\*\|\*\|\/\/\)/d' "$T/$b.cu" > "$T/$b.x"
        done
        n=$((n + 1))
        cmp -s "$T/old.x" "$T/new.x" ||
            { d=$((d + 1)); echo "differs: $t $s"; diff "$T/old.x" "$T/new.x" | head -6; }
    done
done
echo "$n problems' emitted kernels compared, $d differ"
[ $d -eq 0 ]
