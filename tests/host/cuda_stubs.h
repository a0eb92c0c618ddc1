/* Host stand-ins for the CUDA built-ins templates/transpose.cu's tile kind
 * uses, so tests/host/transpose_tiles.cpp can run its tile functions on
 * the host: __funnelshift_r as the low 32 bits of (hi:lo) >> (sh & 31),
 * __byte_perm's selector bytes, __ldg a plain load, and the qualifiers
 * gone. */
#pragma once
#include <cstdint>
#include <cstring>
#define __device__
#define __forceinline__ inline
#define __global__
#define __launch_bounds__(...)
#define __shared__
#define __align__(n) __attribute__((aligned(n)))
struct alignas(8) uint2 { unsigned int x, y; };
struct alignas(16) uint4 { unsigned int x, y, z, w; };
struct dim3v { unsigned x, y, z; };
static dim3v threadIdx, blockIdx, gridDim;
static inline void __syncthreads() {}
template <class T> static inline T __ldg(const T *p) { return *p; }
static inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s)
{
    unsigned char b[8];
    for (int i = 0; i < 4; ++i) { b[i] = (x >> (8 * i)) & 0xFF; b[4 + i] = (y >> (8 * i)) & 0xFF; }
    unsigned int r = 0;
    for (int n = 0; n < 4; ++n) r |= (unsigned int)b[(s >> (4 * n)) & 7] << (8 * n);
    return r;
}
static inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int sh)
{
    unsigned long long v = ((unsigned long long)hi << 32) | lo;
    return (unsigned int)(v >> (sh & 31));
}
extern unsigned char at_smem[];
