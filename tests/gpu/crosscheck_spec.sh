#!/bin/sh
# A user's kernel measured as a user would (`make gpu-crosscheck`): three
# example specs tuned, each emitted .cu linked into a plain nvcc program
# (tests/gpu/crosscheck_spec.cu) and timed back to back against the copy;
# its figure is printed under the tuner's own (the emitted header's). The
# convolution's launcher also copies its filter to constant memory on
# each call, as a user's call would.
cd "$(dirname "$0")/../.." || exit 1
T=$(mktemp -d)
export AUTOTUNE_CACHE="$T/cache.db"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
rc=0
for k in "1 vector_add 16777216" "2 convolution 4096 4096" \
         "3 stencil 8192 8192"; do
    set -- $k
    kind=$1 name=$2
    shift 2
    size=$1${2:+x$2}
    build/autotune kernel "examples/kernels/$name/$name.yaml" --arch auto \
        --size "$size" -o "$T/$name.cu" --quiet > "$T/tune.log" 2>&1 ||
        { cat "$T/tune.log"; rc=1; continue; }
    "$NVCC" -O2 -arch=native -DXC_KIND="$kind" -Itests/gpu \
        tests/gpu/crosscheck_spec.cu "$T/$name.cu" -o "$T/x" || { rc=1; continue; }
    echo "== $name $size: $(sed -n 's/^ \* point: *//p' "$T/$name.cu")"
    sed -n 's/^ \* measured: *\(.*\)/tuner:        \1/p' "$T/$name.cu"
    "$T/x" "$@" || rc=1
done
rm -rf "$T"
exit $rc
