/* Verification helper: counts the 32-bit words where a kernel's output
 * differs from the reference and records the first such word, then writes
 * the poison back, so the buffer is ready for the next variant's check
 * without a separate memset. Compiled once per tuning run with NVRTC;
 * bad[0] and bad[1] must start at 0 (bad[1] keeps ~first, so that one
 * memset of zeros readies every case's counters). */
extern "C" __global__ void at_compare_bits(unsigned *got, const unsigned *want,
                                           unsigned long long n,
                                           unsigned long long *bad,
                                           unsigned poison)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x +
                                threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x) {
        if (got[i] != want[i]) {
            atomicAdd(&bad[0], 1ULL);
            atomicMax(&bad[1], ~i);
        }
        got[i] = poison;
    }
}
