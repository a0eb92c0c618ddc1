// Building an emitted kernel with plain nvcc: emit it, compile it with your
// program, call its extern "C" launcher.
//
//   build/autotune transpose --arch auto --rows 2053 --cols 4099 -o t.cu
//   nvcc -arch=sm_90 examples/emitted_main.cu t.cu -o emitted_main
//   ./emitted_main 2053 4099
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" cudaError_t autotune_transpose_f32(const float *in, float *out,
                                              int rows, int cols,
                                              long long ld_in,
                                              long long ld_out,
                                              cudaStream_t stream);

#define CUDA_OK(call)                                                        \
    do {                                                                     \
        cudaError_t err_ = (call);                                           \
        if (err_ != cudaSuccess) {                                           \
            std::fprintf(stderr, "%s: %s\n", #call,                          \
                         cudaGetErrorString(err_));                          \
            return 1;                                                        \
        }                                                                    \
    } while (0)

int main(int argc, char **argv)
{
    int rows = argc > 2 ? std::atoi(argv[1]) : 2053;
    int cols = argc > 2 ? std::atoi(argv[2]) : 4099;
    size_t n = (size_t)rows * cols;
    std::vector<float> h(n), back(n);
    for (size_t i = 0; i < n; ++i)
        h[i] = (float)(i % 999983) * 0.5f;
    float *in, *out;
    CUDA_OK(cudaMalloc(&in, n * sizeof(float)));
    CUDA_OK(cudaMalloc(&out, n * sizeof(float)));
    CUDA_OK(cudaMemcpy(in, h.data(), n * sizeof(float),
                       cudaMemcpyHostToDevice));
    CUDA_OK(autotune_transpose_f32(in, out, rows, cols, cols, rows, 0));
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(back.data(), out, n * sizeof(float),
                       cudaMemcpyDeviceToHost));
    size_t wrong = 0;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            wrong += back[(size_t)c * rows + r] != h[(size_t)r * cols + c];
    std::printf("emitted kernel, %d x %d f32: %zu wrong elements\n", rows,
                cols, wrong);
    cudaFree(in);
    cudaFree(out);
    return wrong != 0;
}
