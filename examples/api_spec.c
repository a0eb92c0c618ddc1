/* Your own kernel through the API: load its spec (docs/SPEC.md), set the
 * problem's sizes, launch with the kernel's arguments in the spec's order
 * (README, "The API"). The spec is
 * examples/kernels/convolution/convolution.yaml: a 7 x 7 filter in
 * __constant__ memory over a w x h output, its input w + 6 by h + 6.
 *
 *   api_spec [w h [spec]]    (run from the repository root: the spec's
 *                             default path is relative to it)
 *
 * Build line ($AUTOTUNE: this tree, built):
 *   cc api_spec.c -I$AUTOTUNE/include -I/usr/local/cuda/include \
 *      $AUTOTUNE/build/libautotune.a -lsqlite3 -lyaml \
 *      -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lpthread -lm */
#include <cuda_runtime.h>
#include <math.h>
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

enum { FW = 7, FH = 7 }; /* the spec's kernel.defines */

/* Outputs of the w x h result back off by more than the spec's atol 1e-4
 * and rtol 1e-5 from a double reference, the input iw wide. */
static size_t count_wrong(const float *hin, const float *filter,
                          const float *back, long w, long h, long iw)
{
    size_t wrong = 0;
    for (long y = 0; y < h; ++y)
        for (long x = 0; x < w; ++x) {
            double s = 0;
            for (int i = 0; i < FH; ++i)
                for (int j = 0; j < FW; ++j)
                    s += (double)hin[(size_t)(y + i) * (size_t)iw +
                                     (size_t)(x + j)] *
                         filter[i * FW + j];
            double got = back[(size_t)y * (size_t)w + (size_t)x];
            wrong += !(fabs(got - s) <= 1e-4 + 1e-5 * fabs(s));
        }
    return wrong;
}

int main(int argc, char **argv)
{
    long w = argc > 2 ? atol(argv[1]) : 2048;
    long h = argc > 2 ? atol(argv[2]) : 2048;
    const char *spec = argc > 3
                           ? argv[3]
                           : "examples/kernels/convolution/convolution.yaml";
    if (w <= 0 || h <= 0) {
        fprintf(stderr, "usage: api_spec [w h [spec]]\n");
        return 2;
    }
    const long iw = w + FW - 1, ih = h + FH - 1;
    size_t n_in = (size_t)iw * (size_t)ih, n_out = (size_t)w * (size_t)h;
    float *hin = malloc(n_in * sizeof *hin);
    float *back = malloc(n_out * sizeof *back);
    float filter[FH * FW];
    if (!hin || !back)
        return 1;
    for (size_t i = 0; i < n_in; ++i)
        hin[i] = (float)(i * 2654435761u % 2001) / 1000 - 1; /* -1 to 1 */
    for (int i = 0; i < FH * FW; ++i)
        filter[i] = (float)(i % 5 - 2) / (FH * FW);

    autotune_ctx *ctx;
    autotune_options opt = {.verbose = 1}; /* progress lines on stderr */
    if (autotune_create(&ctx, &opt)) {
        fprintf(stderr, "autotune: %s\n", autotune_last_error(NULL));
        return 1;
    }

    float *in, *out;
    cudaStream_t stream;
    CUDA_OK(cudaMalloc((void **)&in, n_in * sizeof *in));
    CUDA_OK(cudaMalloc((void **)&out, n_out * sizeof *out));
    CUDA_OK(cudaStreamCreate(&stream));
    CUDA_OK(cudaMemcpy(in, hin, n_in * sizeof *hin, cudaMemcpyHostToDevice));

    /* The spec becomes a family named after its kernel ("convolution"),
     * of no element type; its fields are its sizes and scalars. */
    const char *family;
    autotune_problem *p = NULL;
    autotune_kernel *k;
    if (autotune_family_load(ctx, spec, &family) ||
        autotune_problem_create(ctx, family, NULL, &p) ||
        autotune_problem_set_int(p, "size_x", w) ||
        autotune_problem_set_int(p, "size_y", h) ||
        autotune_get(ctx, p, &k)) {
        fprintf(stderr, "autotune: %s\n", autotune_last_error(ctx));
        return 1;
    }
    char value[64];
    const char *name;
    printf("%s:", family);
    for (int i = 0; (name = autotune_problem_field(p, i, value, sizeof value));
         ++i)
        printf(" %s=%s", name, value); /* size_x=2048 size_y=2048 */
    printf("\n");
    autotune_problem_destroy(p);

    /* The spec's arguments in its order: out and in are buffers (device
     * pointers), w and h scalars the spec computes (NULL), d_filter a
     * __constant__ symbol (its contents from host memory, copied on the
     * stream before the kernel). */
    const void *args[] = {out, in, NULL, NULL, filter};
    int n_args = (int)(sizeof args / sizeof args[0]);
    if (autotune_kernel_arg_count(k) != n_args) {
        fprintf(stderr, "%s takes %d arguments, not convolution.yaml's %d\n",
                spec, autotune_kernel_arg_count(k), n_args);
        return 1;
    }
    if (autotune_launch(k, args, n_args, stream)) {
        fprintf(stderr, "autotune: %s\n", autotune_last_error(ctx));
        return 1;
    }
    CUDA_OK(cudaStreamSynchronize(stream));
    CUDA_OK(cudaMemcpy(back, out, n_out * sizeof *back,
                       cudaMemcpyDeviceToHost));

    size_t wrong = count_wrong(hin, filter, back, w, h, iw);
    autotune_figures f;
    autotune_kernel_figures(k, &f);
    printf("%s %ld x %ld: %s (%s), %.4f ms, %.0f GB/s; %zu wrong "
           "outputs\n",
           family, w, h, autotune_kernel_point(k),
           f.from_cache ? "from the cache" : "tuned now", f.median_ms, f.gbps,
           wrong);
    autotune_kernel_destroy(k);
    autotune_destroy(ctx);
    cudaFree(in);
    cudaFree(out);
    cudaStreamDestroy(stream);
    free(hin);
    free(back);
    return wrong != 0;
}
