/* expdist's inputs and reference (ours; expdist.cu is unchanged).
 *
 * expdist_inputs makes what Kernel Tuner's expdist.py makes with numpy:
 * B = A + 0.00001 * randn, scale_A = |0.01 * randn|, scale_B likewise,
 * from the normal values the spec put in B and the scales.
 *
 * expdist_ref: the whole cross term, one thread per point of A, in
 * double, each thread's sum in cross_term[i]; the tuned kernel leaves one
 * partial sum per block, so the two are compared by their sums. */
extern "C" __global__ void expdist_inputs(double *B, const double *A,
                                          double *scale_A, double *scale_B,
                                          int n_points, int n_scales)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n_points)
        B[i] = A[i] + 0.00001 * B[i];
    if (i < n_scales) {
        scale_A[i] = fabs(0.01 * scale_A[i]);
        scale_B[i] = fabs(0.01 * scale_B[i]);
    }
}

extern "C" __global__ void expdist_ref(const double *A, const double *B,
                                       int m, int n, double *scale_A,
                                       double *scale_B, double *cross_term)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m)
        return;
    double sum = 0;
    for (int j = 0; j < n; ++j) {
        double dx = A[i] - B[j], dy = A[i + m] - B[j + n];
        sum += exp(-(dx * dx + dy * dy) / (scale_A[i] + scale_B[j]));
    }
    cross_term[i] = sum;
}
