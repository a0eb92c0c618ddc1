/* Blocks of a kernel an SM holds at once, from its threads, registers
 * and shared memory (the CUDA occupancy calculator's arithmetic, per
 * architecture). The emitted .cu asks nvcc for the tuned build's figure
 * (__launch_bounds__'s minimum blocks), so that nvcc keeps to registers
 * that give the occupancy the tuner measured. */
#ifndef AT_OCCUPANCY_H
#define AT_OCCUPANCY_H

#include <stddef.h>

/* Blocks per SM on sm_<sm> of a kernel of `threads` threads a block,
 * `regs` registers a thread and `smem` bytes of shared memory a block
 * (static and dynamic); 0 if the architecture is unknown or the block
 * does not fit at all. */
int at_occupancy_blocks(int sm, int threads, int regs, size_t smem);

/* The most registers a thread that __launch_bounds__(threads, blocks)
 * leaves a compiler: those that still fit `blocks` blocks of `threads`
 * in an SM's registers (in whole allocation units), at most 255. */
int at_occupancy_bound_regs(int threads, int blocks);

/* A thread's registers as the SM allocates them (regs rounded up to
 * the allocation unit's share). */
int at_occupancy_alloc_regs(int regs);

#endif
