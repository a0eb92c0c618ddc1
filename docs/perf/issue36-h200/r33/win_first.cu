// r33's second run (run2-*.txt) ran this win_amax in place of the one in
// r32/col_shapes.cu (the third run's): every lane's loads predicated in
// the step, a lane whose vector the first or last column cuts element by
// element, V 1 and 2 with IT 4V (the configurations "-1 4 w" and "-2 8 w"
// of run2). The third version takes the first two and last two windows
// whole through an element loop instead, which made them a slow tail
// (-2 8 w: 96.5% in run2, 54-62% in run3).
template <int V>
__global__ void __launch_bounds__(256) win_amax(const int *in, unsigned *out,
                                                int rows, int cols, int seg)
{
    constexpr int IT = 4 * V, W = 32 * V;
    __shared__ unsigned slot[2 * W];
    const int lane = threadIdx.x & 31, ty = threadIdx.x >> 5;
    const int w = blockIdx.x;
    const int r0 = blockIdx.y * seg;
    const int r1 = min(rows, r0 + seg);
    for (int i = threadIdx.x; i < 2 * W; i += 256)
        slot[i] = 0;
    int d[IT];
#pragma unroll
    for (int i = 0; i < IT; ++i)
        d[i] = (int)(((long long)(r0 + ty + 8 * i) * cols) % W);
    unsigned a[IT][V];
#pragma unroll
    for (int i = 0; i < IT; ++i)
#pragma unroll
        for (int e = 0; e < V; ++e)
            a[i][e] = 0;
    for (int r = r0 + ty; r < r1; r += 8 * IT) {
        unsigned x[IT][V];
#pragma unroll
        for (int i = 0; i < IT; ++i) {
            const int c = W * w + lane * V - d[i];
            const long long at = (long long)(r + 8 * i) * cols + c;
            if (r + 8 * i < r1 && c >= 0 && c + V <= cols) {
                if (V == 2) {
                    int2 v = __ldg((const int2 *)(in + at));
                    x[i][0] = v.x;
                    x[i][V - 1] = v.y;
                } else {
                    x[i][0] = __ldg(in + at);
                }
            } else {
#pragma unroll
                for (int e = 0; e < V; ++e)
                    x[i][e] = r + 8 * i < r1 && c + e >= 0 && c + e < cols
                                  ? (unsigned)__ldg(in + at + e) : 0u;
            }
        }
#pragma unroll
        for (int i = 0; i < IT; ++i)
#pragma unroll
            for (int e = 0; e < V; ++e)
                a[i][e] = max(a[i][e], uabs(x[i][e]));
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < IT; ++i)
#pragma unroll
        for (int e = 0; e < V; ++e)
            atomicMax(&slot[lane * V + e - d[i] + W], a[i][e]);
    __syncthreads();
    for (int i = threadIdx.x; i < 2 * W; i += 256) {
        const int c = W * w - W + i;
        if (c >= 0 && c < cols)
            atomicMax(out + c, slot[i]);
    }
}
