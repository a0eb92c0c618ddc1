/* What tests/host's stand-ins for CUDA share: the qualifiers gone, the
 * vector types, __ldg a plain load, __funnelshift_r as the low 32 bits
 * of (hi:lo) >> (sh & 31). cuda_stubs.h (tiles, a thread at a time) and
 * warp_stubs.h (strips, warps in step) add the rest. */
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
template <class T> static inline T __ldg(const T *p) { return *p; }
static inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int sh)
{
    unsigned long long v = ((unsigned long long)hi << 32) | lo;
    return (unsigned int)(v >> (sh & 31));
}
