/* The benchmark's CUB contender for reductions, built by nvcc into a
 * shared library per element type and op (AT_T, AT_ACC, AT_OP, as the
 * reduce template's) and loaded by the autotune command at run time:
 * cub::DeviceReduce for the whole array, cub::DeviceSegmentedReduce for
 * rows (segments ld apart). CUB has no reduction down columns. */
#include <cub/cub.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

struct at_map {
    __host__ __device__ AT_ACC operator()(AT_T x) const
    {
        AT_ACC v = (AT_ACC)x;
#if AT_OP == 3
        return v * v;
#elif AT_OP == 4
        return v < 0 ? -v : v;
#else
        return v;
#endif
    }
};

struct at_comb {
    __host__ __device__ AT_ACC operator()(AT_ACC a, AT_ACC b) const
    {
#if AT_OP == 1
        return b < a ? b : a;
#elif AT_OP == 2 || AT_OP == 4
        return b > a ? b : a;
#else
        return a + b;
#endif
    }
};

struct at_row_start {
    long long ld;
    __host__ __device__ long long operator()(long long r) const
    {
        return r * ld;
    }
};

struct at_row_end {
    long long ld, cols;
    __host__ __device__ long long operator()(long long r) const
    {
        return r * ld + cols;
    }
};

static AT_ACC at_init()
{
#if AT_OP == 1
    return cuda::std::numeric_limits<AT_ACC>::max();
#elif AT_OP == 2
    return cuda::std::numeric_limits<AT_ACC>::lowest();
#else
    return (AT_ACC)0;
#endif
}

/* rows x cols (ld apart) into one result per row (rows 1: the whole
 * array). temp NULL: *temp_bytes set to what it needs. Returns the
 * cudaError_t. */
extern "C" int at_cub_reduce(const void *in, void *out, long long rows,
                             long long cols, long long ld, void *temp,
                             size_t *temp_bytes, cudaStream_t s)
{
    const AT_T *x = (const AT_T *)in;
    AT_ACC *y = (AT_ACC *)out;
    if (rows == 1)
        return (int)cub::DeviceReduce::TransformReduce(
            temp, *temp_bytes, x, y, cols, at_comb(), at_map(), at_init(), s);
    thrust::counting_iterator<long long> r(0);
    auto it = thrust::make_transform_iterator(x, at_map());
    auto begin = thrust::make_transform_iterator(r, at_row_start{ld});
    auto end = thrust::make_transform_iterator(r, at_row_end{ld, cols});
    return (int)cub::DeviceSegmentedReduce::Reduce(
        temp, *temp_bytes, it, y, (int)rows, begin, end, at_comb(), at_init(),
        s);
}
