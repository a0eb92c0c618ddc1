/* A tuned reduction from a CUDA program: one sum per row of a rows x cols
 * f32 matrix, deterministic (the same bits run to run), launched with a
 * workspace of the caller's where the tuned point needs one (README, "The
 * API"; "Reductions" for the semantics).
 *
 *   api_reduce [rows cols]
 *
 * Build line ($AUTOTUNE: this tree, built):
 *   cc api_reduce.c -I$AUTOTUNE/include -I/usr/local/cuda/include \
 *      $AUTOTUNE/build/libautotune.a -lsqlite3 -lyaml \
 *      -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lpthread -lm */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autotune.h"

#define CUDA_OK(call)                                                        \
    do {                                                                     \
        cudaError_t err_ = (call);                                           \
        if (err_ != cudaSuccess) {                                           \
            fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(err_));    \
            return 1;                                                        \
        }                                                                    \
    } while (0)

int main(int argc, char **argv)
{
    long rows = argc > 2 ? atol(argv[1]) : 16384;
    long cols = argc > 2 ? atol(argv[2]) : 4096;
    /* Elements 0 to 6: a row's sum stays below 2^24, exact in f32 in any
     * order, up to 2^21 columns. */
    if (rows <= 0 || cols <= 0 || cols > 1L << 21) {
        fprintf(stderr, "usage: api_reduce [rows cols], cols <= 2^21\n");
        return 2;
    }
    size_t n = (size_t)rows * (size_t)cols;
    float *h = malloc(n * sizeof *h);
    float *sums = malloc((size_t)rows * sizeof *sums);
    float *again = malloc((size_t)rows * sizeof *again);
    if (!h || !sums || !again)
        return 1;
    for (size_t i = 0; i < n; ++i)
        h[i] = (float)(i % 7);

    autotune_ctx *ctx;
    autotune_options opt = {.verbose = 1}; /* progress lines on stderr */
    if (autotune_create(&ctx, &opt)) {
        fprintf(stderr, "autotune: %s\n", autotune_last_error(NULL));
        return 1;
    }

    float *in, *out;
    cudaStream_t stream;
    CUDA_OK(cudaMalloc((void **)&in, n * sizeof *in));
    /* f16, bf16 and f32 write f32; f64 writes f64, i32 long long. */
    CUDA_OK(cudaMalloc((void **)&out, (size_t)rows * sizeof *out));
    CUDA_OK(cudaStreamCreate(&stream));
    CUDA_OK(cudaMemcpy(in, h, n * sizeof *h, cudaMemcpyHostToDevice));

    /* The reduce family's fields by name; a choice (op, axis,
     * deterministic) by its name. */
    autotune_problem *p = NULL;
    autotune_kernel *k;
    if (autotune_problem_create(ctx, "reduce", "f32", &p) ||
        autotune_problem_set(p, "op", "sum") ||
        autotune_problem_set(p, "axis", "cols") || /* one result per row */
        autotune_problem_set_int(p, "rows", rows) ||
        autotune_problem_set_int(p, "cols", cols) ||
        autotune_problem_set(p, "deterministic", "yes") ||
        autotune_get(ctx, p, &k)) {
        fprintf(stderr, "autotune: %s\n", autotune_last_error(ctx));
        return 1;
    }
    autotune_problem_destroy(p); /* the kernel keeps what it needs */

    /* A point that splits a row over blocks needs a workspace: zeroed once,
     * each launch leaves it zero, one per stream running at once.
     * autotune_launch would use the kernel's own instead. */
    size_t ws_bytes = autotune_kernel_workspace_bytes(k);
    void *ws = NULL;
    if (ws_bytes) {
        CUDA_OK(cudaMalloc(&ws, ws_bytes));
        CUDA_OK(cudaMemset(ws, 0, ws_bytes));
    }
    const void *args[] = {in, out};
    if (autotune_launch_ws(k, args, 2, ws, stream)) {
        fprintf(stderr, "autotune: %s\n", autotune_last_error(ctx));
        return 1;
    }
    CUDA_OK(cudaMemcpyAsync(sums, out, (size_t)rows * sizeof *sums,
                            cudaMemcpyDeviceToHost, stream));
    if (autotune_launch_ws(k, args, 2, ws, stream)) {
        fprintf(stderr, "autotune: %s\n", autotune_last_error(ctx));
        return 1;
    }
    CUDA_OK(cudaMemcpyAsync(again, out, (size_t)rows * sizeof *again,
                            cudaMemcpyDeviceToHost, stream));
    CUDA_OK(cudaStreamSynchronize(stream));

    size_t wrong = 0;
    for (long r = 0; r < rows; ++r) {
        double s = 0;
        for (long c = 0; c < cols; ++c)
            s += h[(size_t)r * (size_t)cols + (size_t)c];
        wrong += sums[r] != (float)s;
    }
    int same = memcmp(sums, again, (size_t)rows * sizeof *sums) == 0;
    autotune_figures f;
    autotune_kernel_figures(k, &f);
    printf("sum of each row, %ld x %ld f32: %s (%s), %zu bytes of "
           "workspace, %.4f ms, %.0f GB/s; %zu wrong sums, two launches %s\n",
           rows, cols, autotune_kernel_point(k),
           f.from_cache ? "from the cache" : "tuned now", ws_bytes,
           f.median_ms, f.gbps, wrong, same ? "the same bits" : "differ");
    autotune_kernel_destroy(k);
    autotune_destroy(ctx);
    cudaFree(ws);
    cudaFree(in);
    cudaFree(out);
    cudaStreamDestroy(stream);
    free(h);
    free(sums);
    free(again);
    return wrong != 0 || !same;
}
