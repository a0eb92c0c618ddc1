/* pnpoly's slopes, for use_precomputed_slopes: each edge's (vk.x - vj.x) /
 * (vk.y - vj.y) with k = j - 1 (the last for j = 0), as Kernel Tuner's
 * pnpoly_host.cu computes them on the host before each launch. Ours, run
 * once on the inputs (the spec's init_kernel); pnpoly.cu is unchanged. */
extern "C" __global__ void pnpoly_slopes(float *slopes, const float2 *v,
                                         int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        int k = j ? j - 1 : n - 1;
        slopes[j] = (v[k].x - v[j].x) / (v[k].y - v[j].y);
    }
}
