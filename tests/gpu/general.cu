/* The emitted launcher of a kernel made for whole tiles (no element path),
 * built by nvcc as a user builds it: called on its own shape, on shapes
 * its tiles do not divide, and on buffers one element off the vectors,
 * each checked bit for bit against a CPU transpose on random words. The
 * .cu's launcher is GEN (argv: rows cols of the tuned problem). */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

extern "C" cudaError_t GEN(const float *in, float *out, int rows, int cols,
                           long long ld_in, long long ld_out,
                           cudaStream_t stream);

/* 0 when rows x cols from in + off to out + off is right. */
static int check(int rows, int cols, int off)
{
    const size_t n = (size_t)rows * cols;
    std::vector<unsigned> h(n), got(n);
    unsigned x = 12345u + (unsigned)rows * 7u + (unsigned)off;
    for (size_t i = 0; i < n; ++i)
        h[i] = x = x * 1664525u + 1013904223u;
    float *in, *out;
    if (cudaMalloc(&in, (n + off) * 4) || cudaMalloc(&out, (n + off) * 4) ||
        cudaMemcpy(in + off, h.data(), n * 4, cudaMemcpyHostToDevice) ||
        cudaMemset(out, 0xFF, (n + off) * 4))
        return 2;
    cudaError_t r = GEN(in + off, out + off, rows, cols, cols, rows, 0);
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
    for (int rr = 0; rr < rows; ++rr)
        for (int c = 0; c < cols; ++c)
            bad += got[(size_t)c * rows + rr] != h[(size_t)rr * cols + c];
    printf("%dx%d, buffers %d element(s) past cudaMalloc's: %zu of %zu "
           "wrong\n", rows, cols, off, bad, n);
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
    bad |= check(37, 53, 0);
    return bad;
}
