// The crosscheck programs' timing protocol, one copy for every family:
// samples of at least 2 ms of back-to-back launches between CUDA events,
// buffer sets rotated, the median of 21 samples, the contenders
// interleaved sample by sample. run(k, i) launches contender k on set i
// on stream s.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define OK(call)                                                             \
    do {                                                                     \
        cudaError_t e_ = (call);                                             \
        if (e_ != cudaSuccess) {                                             \
            std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));  \
            std::exit(1);                                                    \
        }                                                                    \
    } while (0)

// Milliseconds per launch over a sample of per launches of contender k.
template <class Run>
static double xc_sample(Run run, cudaStream_t s, int k, int per, int sets,
                        int *next)
{
    cudaEvent_t t0, t1;
    OK(cudaEventCreate(&t0));
    OK(cudaEventCreate(&t1));
    OK(cudaEventRecord(t0, s));
    for (int i = 0; i < per; ++i)
        run(k, (*next)++ % sets);
    OK(cudaEventRecord(t1, s));
    OK(cudaEventSynchronize(t1));
    float ms;
    OK(cudaEventElapsedTime(&ms, t0, t1));
    OK(cudaEventDestroy(t0));
    OK(cudaEventDestroy(t1));
    return ms / per;
}

// med[k]: contender k's median milliseconds a launch, for k < n.
template <class Run>
static void xc_medians(Run run, cudaStream_t s, int n, int sets, double *med)
{
    // Launches per sample: at least 2 ms and one round of the sets.
    int next = 0;
    std::vector<int> per(n);
    for (int k = 0; k < n; ++k) {
        double one = xc_sample(run, s, k, sets, sets, &next);
        per[k] = std::max(sets, (int)(2.0 / one) + 1);
    }
    std::vector<std::vector<double>> ms(n);
    for (int i = 0; i < 21; ++i)
        for (int k = 0; k < n; ++k)
            ms[k].push_back(xc_sample(run, s, k, per[k], sets, &next));
    for (int k = 0; k < n; ++k) {
        std::sort(ms[k].begin(), ms[k].end());
        med[k] = ms[k][ms[k].size() / 2];
    }
}
