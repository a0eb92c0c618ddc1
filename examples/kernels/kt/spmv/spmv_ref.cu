/* spmv's matrix and reference (ours; spmv.cu is unchanged).
 *
 * spmv_rows: the CSR row offsets of Kernel Tuner's spmv.py, [0] +
 * sorted(rand(nrows - 1) * nnz) + [nnz]: nrows - 1 sorted uniforms drawn
 * as the running sums of nrows exponential gaps over their total, in one
 * block of 1024 threads (each a stretch of gaps; thread 0 scans the
 * stretches' sums), with a hash of the index for randomness.
 *
 * spmv_ref: y = A x, one thread a row, in double. */
__device__ static double spmv_gap(unsigned long long i)
{
    unsigned long long x = i * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    double u = ((x >> 11) + 1) * 0x1p-53; /* (0, 1] */
    return -log(u);
}

extern "C" __global__ void spmv_rows(int *rows, int nrows, int nnz)
{
    __shared__ double before[1024];
    __shared__ double total;
    int t = threadIdx.x;
    int per = (nrows + 1023) / 1024;
    int lo = min(t * per, nrows), hi = min(lo + per, nrows);
    double s = 0;
    for (int i = lo; i < hi; ++i)
        s += spmv_gap(i);
    before[t] = s;
    __syncthreads();
    if (t == 0) { /* exclusive prefix sums of the stretches */
        double run = 0;
        for (int k = 0; k < 1024; ++k) {
            double v = before[k];
            before[k] = run;
            run += v;
        }
        total = run;
        rows[0] = 0;
        rows[nrows] = nnz;
    }
    __syncthreads();
    double at = before[t];
    for (int i = lo; i < hi; ++i) {
        if (i > 0) {
            long long r = (long long)(nnz * (at / total));
            rows[i] = (int)(r < 0 ? 0 : r > nnz ? nnz : r);
        }
        at += spmv_gap(i);
    }
}

extern "C" __global__ void spmv_ref(float *y, int *rows, int *cols,
                                    float *values, float *x, int nrows)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nrows)
        return;
    double sum = 0;
    for (int j = rows[i]; j < rows[i + 1]; ++j)
        sum += (double)values[j] * x[cols[j]];
    y[i] = (float)sum;
}
