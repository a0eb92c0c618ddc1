#!/bin/sh
# TAP: one .cu for several sizes (issue 12) on a GPU. Three f32
# transposes whose winners should differ (256x256, 4096x4096, 3000x50)
# are tuned one by one, then emitted as one file from the cache
# (--from-cache), and again with --sizes for sm_80 (the default points:
# no such GPU here) and this GPU's architecture. Each file is built with
# the nvcc line its header gives, beside a driver that launches through
# the dispatcher at each tuned size and at sizes between them, checks the
# result against a CPU transpose bit for bit, and checks which kernel ran
# (captured into a CUDA graph and compared with each kernel's own
# launcher): the one NAME_pick names (or, where that one refuses the
# shape, as a strip made for another short side does, a later one), and
# at a tuned size the kernel of the point tuned for it, for this GPU's
# architecture; and a third file of default points (emitted as without a
# GPU), whose strip refuses another short side. Winners that coincide
# are said, not failed. Skips without a GPU.
cd "$(dirname "$0")/../.." || exit 1
. tests/gpu/tap.sh
T=${AT_GPU_TMP:-$(mktemp -d)}
export AUTOTUNE_CACHE="$T/multi_size_cache.db"
rm -f "$AUTOTUNE_CACHE"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
A=${AUTOTUNE:-build/autotune}
TUNED="256x256 4096x4096 3000x50"
BETWEEN="1024x1024 3000x64 700x900 2048x300"

out=$($A transpose --arch auto --rows 256 --cols 256 -o "$T/one_256x256.cu" \
      2>&1)
rc=$?
skip_without_gpu $rc "$out"
plan 11
for s in 4096x4096 3000x50; do
    [ $rc -ne 0 ] && break
    out="$out
$($A transpose --arch auto --rows "${s%x*}" --cols "${s#*x}" \
      -o "$T/one_$s.cu" 2>&1)"
    rc=$?
done
report $rc "tuned $TUNED one by one" \
    "$(printf '%s\n' "$out" | grep -E '^autotune:|best:')"

# The winners, from each file's header, and this GPU's architecture.
points=""
for s in $TUNED; do
    p=$(sed -n 's/^ \* point: *\([^ ]*\).*/\1/p' "$T/one_$s.cu")
    points="$points $s=$p"
done
sm=$(sed -n 's/^ \* tuned: .*(sm_\([0-9]*\),.*/\1/p' "$T/one_256x256.cu")
distinct=$(for s in $points; do echo "${s#*=}"; done | sort -u | wc -l)
note="winners on sm_$sm:$points"
[ "$distinct" -lt 3 ] &&
    note="$note
NOTE: only $distinct distinct winners: the file holds fewer kernels"
report 0 "winners of the three sizes ($distinct distinct)" "$note"

# "rows cols K" for each tuned size, K its kernel for sm_$sm in file $1
# (the driver's arguments); 1 unless each K's point is the size's winner.
tuned_args() {
    args="" msg="" bad=0
    for s in $TUNED; do
        r=${s%x*} c=${s#*x}
        k=$(sed -n "s/^ \* problem: *sm_$sm: transpose f32 ${r}x${c} .*-> kernel \([0-9]*\)$/\1/p" \
            "$1")
        kp=$(sed -n "s/^ \* kernel $k: *\([^ ]*\)$/\1/p" "$1")
        want=$(for p in $points; do
                   [ "${p%%=*}" = "$s" ] && echo "${p#*=}"; done)
        [ -n "$k" ] && [ "$kp" = "$want" ] || bad=1
        msg="$msg
$s: kernel $k ($kp), tuned $want"
        args="$args $r $c ${k:--1}"
    done
    return $bad
}

out=$($A transpose --arch auto --from-cache --name mt -o "$T/multi.cu" 2>&1)
rc=$?
np=$(grep -c '^ \* problem: ' "$T/multi.cu" 2>/dev/null)
[ $rc -eq 0 ] && [ "$np" = 3 ] && tuned_args "$T/multi.cu"
report $? "--from-cache: the 3 tuned problems, each its winner's kernel" \
    "$(printf '%s\n' "$out" | grep -E 'kernel|wrote'; echo "$msg")"

out=$($A transpose --arch "sm_80,sm_$sm" --sizes 256x256,4096x4096,3000x50 \
      --name mt -o "$T/multi2.cu" 2>&1)
rc=$?
cached=$(grep -c '^ \* how: *from the tuning cache' "$T/multi2.cu" 2>/dev/null)
[ $rc -eq 0 ] && [ "$cached" = 3 ] && tuned_args "$T/multi2.cu"
report $? "--sizes for sm_80 and sm_$sm: the same, each from the cache" \
    "$(printf '%s\n' "$out" | grep -E 'kernel|wrote'; echo "$msg")"

cat > "$T/driver.cu" <<'EOF'
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
typedef cudaError_t (*launch_t)(const float *, float *, int, int, long long,
                                long long, cudaStream_t);
extern "C" cudaError_t mt(const float *, float *, int, int, long long,
                          long long, cudaStream_t);
extern "C" int mt_pick(long long, long long, long long, long long,
                       long long, long long, long long, int);
#include "kernels.h" /* the kernels' own launchers (build below) */

/* The kernel a launch through f enqueues (captured, not run); *err: f's
 * answer. */
static const void *enqueued(launch_t f, const float *in, float *out, int r,
                            int c, cudaError_t *err)
{
    cudaStream_t s;
    cudaGraph_t g;
    const void *fn = NULL;
    cudaStreamCreate(&s);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
    *err = f(in, out, r, c, c, r, s);
    if (cudaStreamEndCapture(s, &g) == cudaSuccess) {
        size_t n = 0;
        cudaGraphGetNodes(g, NULL, &n);
        std::vector<cudaGraphNode_t> nodes(n);
        cudaGraphGetNodes(g, nodes.data(), &n);
        for (size_t i = 0; i < n; ++i) {
            cudaGraphNodeType t;
            cudaKernelNodeParams p;
            cudaGraphNodeGetType(nodes[i], &t);
            if (t == cudaGraphNodeTypeKernel &&
                cudaGraphKernelNodeGetParams(nodes[i], &p) == cudaSuccess)
                fn = p.func;
        }
        cudaGraphDestroy(g);
    }
    cudaStreamDestroy(s);
    return fn;
}

/* Arguments: rows cols K ..., K the kernel tuned for that size (-1: a
 * size between). */
int main(int argc, char **argv)
{
    int bad = 0;
    for (int a = 1; a + 2 < argc; a += 3) {
        int r = atoi(argv[a]), c = atoi(argv[a + 1]), want = atoi(argv[a + 2]);
        size_t n = (size_t)r * c, wrong = 0;
        std::vector<float> h(n), o(n);
        for (size_t i = 0; i < n; ++i)
            h[i] = (float)(i * 2654435761u % 1000003u);
        float *in, *out;
        cudaMalloc(&in, n * 4);
        cudaMalloc(&out, n * 4);
        cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice);
        cudaMemset(out, 0xff, n * 4);
        int pick = mt_pick(r, c, c, r, 1, (long long)r * c, (long long)c * r,
                           0);
        cudaError_t e = mt(in, out, r, c, c, r, 0);
        cudaError_t e2 = cudaDeviceSynchronize();
        cudaMemcpy(o.data(), out, n * 4, cudaMemcpyDeviceToHost);
        for (int i = 0; i < r; ++i)
            for (int j = 0; j < c; ++j)
                wrong += o[(size_t)j * r + i] != h[(size_t)i * c + j];
        cudaError_t ce, ke, pe = cudaSuccess;
        const void *ran = enqueued(mt, in, out, r, c, &ce);
        int k_ran = -1;
        for (int k = 0; k < n_kernels; ++k)
            if (enqueued(kernels[k], in, out, r, c, &ke) == ran &&
                ke == cudaSuccess)
                k_ran = k;
        if (pick >= 0 && pick < n_kernels)
            enqueued(kernels[pick], in, out, r, c, &pe);
        int ok = e == cudaSuccess && e2 == cudaSuccess && wrong == 0 &&
                 ran && k_ran >= 0 &&
                 (k_ran == pick || pe == cudaErrorInvalidValue) &&
                 (want < 0 || (pick == want && k_ran == want));
        printf("%s %dx%d: picked kernel %d%s, ran kernel %d, %zu wrong "
               "(%s, %s)%s\n", ok ? "ok" : "WRONG", r, c, pick,
               pe == cudaErrorInvalidValue ? " (refuses the shape)" : "",
               k_ran, wrong, cudaGetErrorString(e), cudaGetErrorString(e2),
               want >= 0 ? ", a tuned size" : "");
        bad |= !ok;
        cudaFree(in);
        cudaFree(out);
    }
    return bad;
}
EOF
# Builds file $1 as the driver $2 with its header's nvcc line.
build() {
    K=$(grep -c '^ \* kernel [0-9]*:' "$1")
    mkdir -p "$T/$2.d"
    {
        k=0
        while [ $k -lt "$K" ]; do
            echo "extern \"C\" cudaError_t mt_k$k(const float *, float *,"
            echo "    int, int, long long, long long, cudaStream_t);"
            k=$((k + 1))
        done
        printf 'static launch_t kernels[] = {'
        k=0
        while [ $k -lt "$K" ]; do printf 'mt_k%d, ' $k; k=$((k + 1)); done
        printf '};\nstatic const int n_kernels = %d;\n' "$K"
    } > "$T/$2.d/kernels.h"
    gencode=$(sed -n 's/^ \* Build: *nvcc \(.*\) -c this\.cu$/\1/p' "$1")
    echo "nvcc $gencode"
    # shellcheck disable=SC2086
    "$NVCC" -O2 $gencode -I"$T/$2.d" "$1" "$T/driver.cu" -o "$T/$2" 2>&1
}

# The default points, as without a GPU: a strip for 3000x50, which
# refuses 3000x64 (another short side), so the next kernel takes it.
out=$(AUTOTUNE_LIBCUDA=/nonexistent/libcuda.so.1 \
      AUTOTUNE_CACHE="$T/multi_size_empty.db" $A transpose --arch "sm_$sm" \
      --sizes 3000x50,4096x4096 --name mt -o "$T/multi3.cu" 2>&1)
report $? "--sizes without a GPU: the default points" \
    "$(printf '%s\n' "$out" | grep -E 'kernel|wrote')"

for f in multi multi2 multi3; do
    out=$(build "$T/$f.cu" "drv_$f")
    report $? "$f.cu builds with its header's line" "$out"
    tuned_args "$T/$f.cu"
    [ $f = multi3 ] && args="3000 50 -1 4096 4096 -1 3000 100 -1"
    for s in $BETWEEN; do
        args="$args ${s%x*} ${s#*x} -1"
    done
    # shellcheck disable=SC2086
    out=$("$T/drv_$f" $args 2>&1)
    report $? "$f.cu through the dispatcher: right answers, the kernel it picks" \
        "$out"
done
[ -n "${AT_GPU_TMP:-}" ] || rm -rf "$T"
