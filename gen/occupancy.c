#include "occupancy.h"

#include "arch.h"

/* Registers: 64K an SM on every architecture of gen/arch.c, allocated a
 * warp at a time in units of 256. */
enum { REGS_PER_SM = 65536, REG_UNIT = 256 };

static int min_int(int a, int b) { return a < b ? a : b; }

int at_occupancy_blocks(int sm, int threads, int regs, size_t smem)
{
    const at_arch *a = at_arch_of(sm);
    if (!a || threads < 1 || regs < 0)
        return 0;
    const int warps = (threads + 31) / 32;
    /* A warp's registers, rounded up to the allocation unit. */
    const int warp_regs = (regs * 32 + REG_UNIT - 1) / REG_UNIT * REG_UNIT;
    int b = min_int(a->sm_threads / (warps * 32), a->sm_blocks);
    if (warp_regs > 0)
        b = min_int(b, REGS_PER_SM / (warps * warp_regs));
    if (smem > 0)
        b = min_int(b, (int)(a->sm_smem / (smem + a->reserved)));
    return b > 0 ? b : 0;
}

int at_occupancy_bound_regs(int threads, int blocks)
{
    if (threads < 1 || blocks < 1)
        return 0;
    const int warps = (threads + 31) / 32;
    const int r = REGS_PER_SM / (blocks * warps * REG_UNIT) * REG_UNIT / 32;
    return r < 255 ? r : 255;
}

int at_occupancy_alloc_regs(int regs)
{
    const int unit = REG_UNIT / 32;
    return (regs + unit - 1) / unit * unit;
}
