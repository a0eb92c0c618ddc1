/* The emitted launcher of a kernel made for whole tiles (no element path),
 * built by nvcc as a user builds it: called on its own shape, on shapes
 * its tiles do not divide (the tuned kernel and the plain one for the
 * strips), on buffers and batch strides off the vectors (the plain one
 * alone), each checked bit for bit against a CPU transpose on random
 * words. The .cu's launcher is GEN (argv: rows cols of the tuned
 * problem; "big" for a side of INT_MAX (16 GB of device memory) or "-";
 * the output's leading dimension past rows, for every launch). */
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

/* Output rows this many elements apart past rows (argv[4]). */
static int pad_out;

/* 0 when a batch of rows x cols, pad elements between matrices, from
 * in + off to out + off is right: every word of the output buffer, the
 * padding between rows and matrices keeping its poison. */
static int check(int rows, int cols, int off, int batch = 1, int pad = 0)
{
    const long long lo = rows + pad_out;
    const size_t m = (size_t)rows * cols, si = m + pad;
    const size_t mo = (size_t)(cols - 1) * lo + rows, so = mo + pad;
    const size_t n = si * (batch - 1) + m, no = so * (batch - 1) + mo;
    std::vector<unsigned> h(n), got(no), want(no, 0xFFFFFFFFu);
    unsigned x = 12345u + (unsigned)rows * 7u + (unsigned)off;
    for (size_t i = 0; i < n; ++i)
        h[i] = x = x * 1664525u + 1013904223u;
    for (int z = 0; z < batch; ++z)
        for (int rr = 0; rr < rows; ++rr)
            for (int c = 0; c < cols; ++c)
                want[z * so + (size_t)c * lo + rr] = h[z * si +
                                                       (size_t)rr * cols + c];
    float *in, *out;
    if (cudaMalloc(&in, (n + off) * 4) || cudaMalloc(&out, (no + off) * 4) ||
        cudaMemcpy(in + off, h.data(), n * 4, cudaMemcpyHostToDevice) ||
        cudaMemset(out, 0xFF, (no + off) * 4))
        return 2;
    cudaError_t r = CAT(GEN, _batched)(in + off, out + off, rows, cols,
                                       cols, lo, batch, (long long)si,
                                       (long long)so, 0);
    if (r == cudaSuccess)
        r = cudaDeviceSynchronize();
    if (r == cudaSuccess)
        r = cudaMemcpy(got.data(), out + off, no * 4, cudaMemcpyDeviceToHost);
    cudaFree(in);
    cudaFree(out);
    if (r != cudaSuccess) {
        printf("%dx%d +%d: %s\n", rows, cols, off, cudaGetErrorString(r));
        return 1;
    }
    size_t bad = 0;
    for (size_t i = 0; i < no; ++i)
        bad += got[i] != want[i];
    printf("%d of %dx%d, ld_out %lld, %d between, buffers %d element(s) "
           "past cudaMalloc's: %zu of %zu wrong\n", batch, rows, cols, lo,
           pad, off, bad, no);
    return bad != 0;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    const int rows = atoi(argv[1]), cols = atoi(argv[2]);
    pad_out = argc > 4 ? atoi(argv[4]) : 0;
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
