/* computeMeanHorizontally's reference (ours; zeromeanfilter.cu is
 * unchanged and has a naive kernel only for the vertical filter): one
 * thread a row, its even and odd elements' means subtracted in place. */
extern "C" __global__ void mean_horizontally_ref(int h, int w, float *input)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= h)
        return;
    float *row = input + (long long)i * w;
    float even = 0.0f, odd = 0.0f;
    for (int j = 0; j < w - 1; j += 2) {
        even += row[j];
        odd += row[j + 1];
    }
    if (w & 1)
        even += row[w - 1];
    float mean_even = even / ((w + 1) / 2), mean_odd = odd / (w / 2);
    for (int j = 0; j < w - 1; j += 2) {
        row[j] -= mean_even;
        row[j + 1] -= mean_odd;
    }
    if (w & 1)
        row[w - 1] -= mean_even;
}
