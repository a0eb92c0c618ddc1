/* The emitted launcher of a kernel made for whole tiles (no element path),
 * built by nvcc as a user builds it: called on its own shape, on shapes
 * its tiles do not divide (the tuned kernel and the plain one for the
 * strips), on buffers and batch strides off the vectors (the plain one
 * alone), each checked bit for bit against a CPU transpose on random
 * words. The .cu's launcher is GEN (argv: rows cols of the tuned
 * problem, and "big" for a side of INT_MAX: 16 GB of device memory). */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
extern "C" cudaError_t CAT(GEN, _batched)(const float *in, float *out,
    int rows, int cols, long long ld_in, long long ld_out, int batch,
    long long stride_in, long long stride_out, cudaStream_t stream);

/* 0 when a batch of rows x cols, pad elements between matrices, from
 * in + off to out + off is right (every word of the output buffer: the
 * pads must keep their poison). */
static int check(int rows, int cols, int off, int batch = 1, int pad = 0)
{
    const size_t m = (size_t)rows * cols, si = m + pad, so = m + pad;
    const size_t n = si * (batch - 1) + m;
    std::vector<unsigned> h(n), got(n);
    unsigned x = 12345u + (unsigned)rows * 7u + (unsigned)off;
    for (size_t i = 0; i < n; ++i)
        h[i] = x = x * 1664525u + 1013904223u;
    float *in, *out;
    if (cudaMalloc(&in, (n + off) * 4) || cudaMalloc(&out, (n + off) * 4) ||
        cudaMemcpy(in + off, h.data(), n * 4, cudaMemcpyHostToDevice) ||
        cudaMemset(out, 0xFF, (n + off) * 4))
        return 2;
    cudaError_t r = CAT(GEN, _batched)(in + off, out + off, rows, cols,
                                       cols, rows, batch, (long long)si,
                                       (long long)so, 0);
    if (r == cudaSuccess)
        r = cudaDeviceSynchronize();
    if (r == cudaSuccess)
        r = cudaMemcpy(got.data(), out + off, n * 4, cudaMemcpyDeviceToHost);
    cudaFree(in);
    cudaFree(out);
    if (r != cudaSuccess) {
        printf("%dx%d +%d: %s\n", rows, cols, off, cudaGetErrorString(r));
        return 1;
    }
    size_t bad = 0;
    for (int z = 0; z < batch; ++z) {
        const unsigned *hz = h.data() + z * si, *gz = got.data() + z * so;
        for (int rr = 0; rr < rows; ++rr)
            for (int c = 0; c < cols; ++c)
                bad += gz[(size_t)c * rows + rr] != hz[(size_t)rr * cols + c];
        for (int k = 0; z + 1 < batch && k < pad; ++k)
            bad += gz[m + k] != 0xFFFFFFFFu;
    }
    printf("%d of %dx%d, %d between, buffers %d element(s) past "
           "cudaMalloc's: %zu of %zu wrong\n", batch, rows, cols, pad, off,
           bad, n);
    return bad != 0;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    const int rows = atoi(argv[1]), cols = atoi(argv[2]);
    int bad = check(rows, cols, 0);
    bad |= check(rows, cols, 1);
    bad |= check(rows - 3, cols + 5, 0);
    bad |= check(rows + 1, cols - 1, 1);
    bad |= check(rows + 1, cols - 1, 0);
    bad |= check(37, 53, 0);
    bad |= check(rows - 24, cols + 40, 0, 3, 64); /* strips, batched */
    bad |= check(rows, cols, 0, 2, 1);            /* strides off */
    /* Sides near INT_MAX (never whole): the plain kernel's tile counts. */
    if (argc > 3 && strcmp(argv[3], "big") == 0)
        bad |= check(1, 2147483647, 0);
    return bad;
}
