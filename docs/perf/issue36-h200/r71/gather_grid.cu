// Gathered strips' grid: u8 31 x 3552786's winner on the H200
// (strip_blk32x4_vec4_st2_gth, emitted as gathered_u8_31.cu, built here
// from its source) launched with its launcher's grid (2 tiles a block)
// and with fewer blocks that loop (the kernel strides by the grid): a
// whole number of blocks an SM holds, 1 to 8 times over. Each timed
// best of 20 beside a device-to-device copy of the same bytes, and
// checked against the CPU. Build: nvcc -O2 -arch=native gather_grid.cu
// (r72: -DGATHERED='"file.cu"' for another emitted gathered point, of
// AT_SHORT rows and argv[1] columns.)
#ifndef GATHERED
#define GATHERED "gathered_u8_31.cu"
#endif
#include GATHERED
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)
int main(int argc, char **argv) {
    const int rows = AT_SHORT, cols = argc > 1 ? atoi(argv[1]) : 3552786;
    const size_t n = (size_t)rows * cols, bytes = n * sizeof(at_elem);
    std::vector<at_elem> h(n), got(n);
    for (size_t i = 0; i < n; ++i) h[i] = (at_elem)(rand() >> 5);
    at_elem *in, *out, *c2;
    CK(cudaMalloc(&in, bytes)); CK(cudaMalloc(&out, bytes)); CK(cudaMalloc(&c2, bytes));
    CK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaFuncSetAttribute(gk_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, AT_STRIP_SMEM));
    int per_sm = 0, sms = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gk_kernel, AT_THREADS, AT_STRIP_SMEM));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const long long tiles = (cols + AT_GW_POS - 1) / AT_GW_POS;
    printf("%s, %d x %d: blocks an SM %d, SMs %d, tiles %lld, smem %d\n", GATHERED, rows, cols,
           per_sm, sms, tiles, (int)AT_STRIP_SMEM);
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    auto best = [&](auto f) {
        float m = 1e9;
        for (int r = 0; r < 22; ++r) {
            CK(cudaEventRecord(a)); f(); CK(cudaEventRecord(b));
            CK(cudaEventSynchronize(b)); CK(cudaGetLastError());
            float ms; CK(cudaEventElapsedTime(&ms, a, b));
            if (r >= 2 && ms < m) m = ms;
        }
        return m;
    };
    const float copy = best([&] { CK(cudaMemcpy(c2, in, bytes, cudaMemcpyDeviceToDevice)); });
    printf("copy %.4f ms %.0f GB/s\n", copy, 2.0 * bytes / copy / 1e6);
    std::vector<long long> grids = {(tiles + AT_STEPS - 1) / AT_STEPS};
    for (int k = 1; k <= 4; k *= 2) grids.push_back((long long)per_sm * sms * k);
    for (long long g : grids) {
        CK(cudaMemset(out, 0, bytes));
        const float ms = best([&] {
            gk_kernel<<<(unsigned)g, dim3(AT_BLOCK_X, AT_BLOCK_Y), AT_STRIP_SMEM>>>(
                in, out, rows, cols, cols, rows, 1, (long long)n, (long long)n);
        });
        CK(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost));
        long long wrong = 0;
        for (size_t c = 0; c < (size_t)cols; ++c)
            for (int r = 0; r < rows; ++r)
                wrong += got[c * rows + r] != h[(size_t)r * cols + c];
        printf("grid %8lld (%.2f tiles a block): %.4f ms %.1f%% of copy, %lld wrong\n",
               g, (double)tiles / g, ms, 100 * copy / ms, wrong);
    }
    return 0;
}
