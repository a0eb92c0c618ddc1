/* What each GPU architecture allows a block and an SM (CUDA programming
 * guide, the compute capabilities table): the one table that the space's
 * limits (gen/space.c) and the occupancy arithmetic (gen/occupancy.c)
 * read, so an architecture is added in one place. */
#ifndef AT_ARCH_H
#define AT_ARCH_H

#include <stddef.h>

typedef struct at_arch {
    int sm;            /* compute capability, 90 for sm_90 */
    int block_threads; /* threads a block */
    int block_smem;    /* shared memory a block may opt in to, bytes */
    int sm_threads;    /* resident threads an SM */
    int sm_blocks;     /* resident blocks an SM */
    size_t sm_smem;    /* shared memory an SM, bytes */
    size_t reserved;   /* shared memory the driver keeps a block, bytes */
} at_arch;

/* sm's row, or NULL for an architecture not in the table. */
const at_arch *at_arch_of(int sm);

#endif
