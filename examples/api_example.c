/* Using autotune from a CUDA program: allocate with the CUDA runtime as
 * usual, ask autotune for a tuned transpose (the first run tunes and fills
 * the cache; later runs load the cached kernel), launch it on your stream.
 *
 *   make examples && build/examples/api_example [rows cols]
 *
 * Build line, outside this tree:
 *   cc api_example.c -I$AUTOTUNE/include -I/usr/local/cuda/include \
 *      $AUTOTUNE/build/libautotune.a -lsqlite3 -lyaml \
 *      -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lpthread -lm */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

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
    long rows = argc > 2 ? atol(argv[1]) : 4096;
    long cols = argc > 2 ? atol(argv[2]) : 4096;
    if (rows <= 0 || cols <= 0) {
        fprintf(stderr, "usage: api_example [rows cols]\n");
        return 2;
    }
    size_t n = (size_t)rows * (size_t)cols;
    float *h = malloc(n * sizeof *h), *back = malloc(n * sizeof *back);
    if (!h || !back)
        return 1;
    for (size_t i = 0; i < n; ++i)
        h[i] = (float)(i % 1000003);

    autotune_ctx *ctx;
    autotune_kernel *k;
    autotune_options opt = {.verbose = 1}; /* device 0, default cache, progress */
    autotune_problem *p;
    if (autotune_create(&ctx, &opt)) {
        fprintf(stderr, "autotune: %s\n", autotune_last_error(NULL));
        return 1;
    }

    float *in, *out;
    cudaStream_t stream;
    CUDA_OK(cudaMalloc((void **)&in, n * sizeof *in));
    CUDA_OK(cudaMalloc((void **)&out, n * sizeof *out));
    CUDA_OK(cudaStreamCreate(&stream));
    CUDA_OK(cudaMemcpy(in, h, n * sizeof *h, cudaMemcpyHostToDevice));
    /* A problem: a family, a type and the family's fields by name. */
    const void *args[] = {in, out};
    if (autotune_problem_create(ctx, "transpose", "f32", &p) ||
        autotune_problem_set_int(p, "rows", rows) ||
        autotune_problem_set_int(p, "cols", cols) ||
        autotune_get(ctx, p, &k) || autotune_launch(k, args, 2, stream)) {
        fprintf(stderr, "autotune: %s\n", autotune_last_error(ctx));
        return 1;
    }
    CUDA_OK(cudaStreamSynchronize(stream));
    CUDA_OK(cudaMemcpy(back, out, n * sizeof *back, cudaMemcpyDeviceToHost));

    size_t wrong = 0;
    for (long r = 0; r < rows; ++r)
        for (long c = 0; c < cols; ++c)
            wrong += back[(size_t)c * rows + r] != h[(size_t)r * cols + c];
    autotune_figures f;
    autotune_kernel_figures(k, &f);
    printf("%ld x %ld f32: %s (%s), %.4f ms, %.0f GB/s, %.1f%% of copy; "
           "%zu wrong elements\n",
           rows, cols, autotune_kernel_point(k),
           f.from_cache ? "from the cache" : "tuned now", f.median_ms, f.gbps,
           100 * f.frac_copy, wrong);
    autotune_kernel_destroy(k);
    autotune_problem_destroy(p);
    autotune_destroy(ctx);
    cudaFree(in);
    cudaFree(out);
    cudaStreamDestroy(stream);
    free(h);
    free(back);
    return wrong != 0;
}
