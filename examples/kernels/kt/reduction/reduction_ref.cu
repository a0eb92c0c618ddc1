/* The sum of reduction.py's array (ours; reduction.cu is unchanged):
 * each block's partial sum, in double, in sum_global[blockIdx.x]. The
 * example checks numpy.sum(x) against the sum of the tuned kernel's
 * partial sums; so does the spec, with this kernel's. */
extern "C" __global__ void sum_ref(float *sum_global, const float *array,
                                   int n)
{
    __shared__ double part[256];
    double s = 0;
    for (long long i = blockIdx.x * 256LL + threadIdx.x; i < n;
         i += 256LL * gridDim.x)
        s += array[i];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = 128; w > 0; w >>= 1) {
        if (threadIdx.x < w)
            part[threadIdx.x] += part[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        sum_global[blockIdx.x] = (float)part[0];
}
