/* Host stand-ins for what templates/reduce.cu uses, for
 * tests/host/reduce_strips.cpp: beside warp_stubs.h's (every thread a
 * std::thread, warps in step at their intrinsics, a block barrier for
 * __syncthreads), shared memory as the kernel's statics (one block runs
 * at a time), and the loads, stores, atomics and bit casts as plain host
 * code. The atomics are plain: the strips run with one block a strip
 * (no split), whose threads never race on them. */
#pragma once
#include <cstdlib>

#include "warp_stubs.h"

#undef __shared__
#define __shared__ static
#define __restrict__ __restrict

static inline void __threadfence() {}
[[noreturn]] static inline void __trap() { std::abort(); }

template <class T> static inline T __ldcg(const T *p) { return *p; }
template <class T> static inline void __stcg(T *p, T v) { *p = v; }
template <class T> static inline T atomicAdd(T *p, T v)
{
    T o = *p;
    *p = o + v;
    return o;
}
template <class T> static inline T atomicExch(T *p, T v)
{
    T o = *p;
    *p = v;
    return o;
}
template <class T> static inline T atomicMax(T *p, T v)
{
    T o = *p;
    *p = o < v ? v : o;
    return o;
}

static inline int __clz(unsigned x) { return x ? __builtin_clz(x) : 32; }

template <class To, class From> static inline To at_hbits(From f)
{
    static_assert(sizeof(To) == sizeof(From), "same size");
    To t;
    std::memcpy(&t, &f, sizeof t);
    return t;
}
static inline float __uint_as_float(unsigned x) { return at_hbits<float>(x); }
static inline float __int_as_float(int x) { return at_hbits<float>(x); }
static inline unsigned __float_as_uint(float x) { return at_hbits<unsigned>(x); }
static inline double __longlong_as_double(long long x)
{
    return at_hbits<double>(x);
}
static inline long long __double_as_longlong(double x)
{
    return at_hbits<long long>(x);
}
