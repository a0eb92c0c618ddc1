/* Host stand-ins for the CUDA built-ins templates/transpose.cu's tile kind
 * uses, so tests/host/transpose_tiles.cpp can run its tile functions on
 * the host, a thread at a time: beside cuda_common.h's, __byte_perm's
 * selector bytes and a barrier that does nothing. */
#pragma once
#include "cuda_common.h"
static dim3v threadIdx, blockIdx, gridDim;
static inline void __syncthreads() {}
static inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s)
{
    unsigned char b[8];
    for (int i = 0; i < 4; ++i) { b[i] = (x >> (8 * i)) & 0xFF; b[4 + i] = (y >> (8 * i)) & 0xFF; }
    unsigned int r = 0;
    for (int n = 0; n < 4; ++n) r |= (unsigned int)b[(s >> (4 * n)) & 7] << (8 * n);
    return r;
}
extern unsigned char at_smem[];
