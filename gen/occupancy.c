#include "occupancy.h"

/* Per-SM limits (CUDA programming guide, the compute capabilities table):
 * threads, blocks, shared memory (bytes, and what the driver reserves a
 * block). Registers: 64K an SM on all of them, allocated a warp at a time
 * in units of 256. */
static const struct {
    int sm, threads, blocks;
    size_t smem, reserved;
} per_sm[] = {
    {70, 2048, 32, 96 * 1024, 0},         {75, 1024, 16, 64 * 1024, 0},
    {80, 2048, 32, 164 * 1024, 1024},     {86, 1536, 16, 100 * 1024, 1024},
    {87, 1536, 16, 164 * 1024, 1024},     {89, 1536, 24, 100 * 1024, 1024},
    {90, 2048, 32, 228 * 1024, 1024},     {100, 2048, 32, 228 * 1024, 1024},
    {120, 1536, 24, 100 * 1024, 1024},
};

enum { REGS_PER_SM = 65536, REG_UNIT = 256 };

static int min_int(int a, int b) { return a < b ? a : b; }

int at_occupancy_blocks(int sm, int threads, int regs, size_t smem)
{
    if (threads < 1 || regs < 0)
        return 0;
    for (size_t i = 0; i < sizeof per_sm / sizeof per_sm[0]; ++i) {
        if (per_sm[i].sm != sm)
            continue;
        const int warps = (threads + 31) / 32;
        /* A warp's registers, rounded up to the allocation unit. */
        const int warp_regs = (regs * 32 + REG_UNIT - 1) / REG_UNIT * REG_UNIT;
        int b = min_int(per_sm[i].threads / (warps * 32), per_sm[i].blocks);
        if (warp_regs > 0)
            b = min_int(b, REGS_PER_SM / (warps * warp_regs));
        const size_t per_block = smem + per_sm[i].reserved;
        if (smem > 0)
            b = min_int(b, (int)(per_sm[i].smem / per_block));
        return b > 0 ? b : 0;
    }
    return 0;
}
