/* Host stand-ins for the CUDA built-ins templates/transpose.cu's strip
 * kind uses, for tests/host/transpose_strips.cpp: beside cuda_common.h's,
 * every thread of a block a std::thread, each warp's 32 in step at its
 * warp intrinsics (__shfl_sync, __shfl_down_sync, __shfl_up_sync,
 * __ballot_sync, __all_sync, __syncwarp) through a barrier, as the GPU
 * runs them, and a block's at __syncthreads. */
#pragma once
#include <barrier>

#include "cuda_common.h"
static thread_local dim3v threadIdx;
static dim3v blockIdx, gridDim;

/* A warp's exchange: a slot a lane, and the barrier its 32 meet at. */
struct at_host_warp {
    std::barrier<> bar{32};
    unsigned char slot[32][16];
    int pred[32];
};
static thread_local at_host_warp *at_hw;
static thread_local int at_hlane;

template <class T> static inline T __shfl_sync(unsigned, T v, int src)
{
    static_assert(sizeof(T) <= 16, "a slot holds 16 bytes");
    std::memcpy(at_hw->slot[at_hlane], &v, sizeof v);
    at_hw->bar.arrive_and_wait();
    T r;
    std::memcpy(&r, at_hw->slot[src & 31], sizeof r);
    at_hw->bar.arrive_and_wait();
    return r;
}
/* Down: within segments of width lanes (the whole warp unless given),
 * a lane whose source passes its segment gets its own value; up: one
 * whose source is before lane 0 does; as on the GPU. */
template <class T> static inline T __shfl_down_sync(unsigned m, T v,
                                                    unsigned d,
                                                    int width = 32)
{
    const int in = at_hlane % width + (int)d < width;
    return __shfl_sync(m, v, in ? at_hlane + (int)d : at_hlane);
}
template <class T> static inline T __shfl_up_sync(unsigned m, T v, unsigned d)
{
    const int src = at_hlane - (int)d;
    return __shfl_sync(m, v, src >= 0 ? src : at_hlane);
}
/* Every lane's predicate, lane i's in bit i (the warp's 32 all vote). */
static inline unsigned __ballot_sync(unsigned, int p)
{
    at_hw->pred[at_hlane] = p != 0;
    at_hw->bar.arrive_and_wait();
    unsigned b = 0;
    for (int i = 0; i < 32; ++i)
        b |= (unsigned)at_hw->pred[i] << i;
    at_hw->bar.arrive_and_wait();
    return b;
}
static inline int __all_sync(unsigned m, int p)
{
    return __ballot_sync(m, p) == 0xFFFFFFFFu;
}
static inline void __syncwarp() { at_hw->bar.arrive_and_wait(); }
/* The block's barrier, for __syncthreads: the harness points at_hblock
 * at one of its threads' count before it starts a block. */
static std::barrier<> *at_hblock;
static inline void __syncthreads() { at_hblock->arrive_and_wait(); }
