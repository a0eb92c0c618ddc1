// 2D convolution with a FW x FH filter in constant memory, each thread
// computing tile_size_x by tile_size_y outputs (block_size_x columns
// apart, so a warp's loads stay coalesced). in is the input with its
// halo: (w + FW - 1) columns by (h + FH - 1) rows.
__constant__ float d_filter[FH * FW];

extern "C" __global__ void convolution(float *out, const float *in, int w,
                                       int h)
{
    const int iw = w + FW - 1;
    const int x0 = blockIdx.x * block_size_x * tile_size_x + threadIdx.x;
    const int y0 = blockIdx.y * block_size_y * tile_size_y + threadIdx.y;
#pragma unroll
    for (int ty = 0; ty < tile_size_y; ++ty) {
#pragma unroll
        for (int tx = 0; tx < tile_size_x; ++tx) {
            int x = x0 + tx * block_size_x, y = y0 + ty * block_size_y;
            if (x >= w || y >= h)
                continue;
            float sum = 0;
            for (int i = 0; i < FH; ++i)
                for (int j = 0; j < FW; ++j)
                    sum += in[(size_t)(y + i) * iw + x + j] *
                           d_filter[i * FW + j];
            out[(size_t)y * w + x] = sum;
        }
    }
}

// The reference: one output a thread, the same order of sums.
extern "C" __global__ void convolution_ref(float *out, const float *in,
                                           int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float sum = 0;
    for (int i = 0; i < FH; ++i)
        for (int j = 0; j < FW; ++j)
            sum += in[(size_t)(y + i) * (w + FW - 1) + x + j] *
                   d_filter[i * FW + j];
    out[(size_t)y * w + x] = sum;
}
