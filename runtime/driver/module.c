#include "runtime/driver/driver.h"

#include <stdio.h>


int at_module_function(CUmodule mod, const void *cubin, size_t size,
                       const char *name, CUfunction *fn, const char *variant,
                       at_err *e)
{
    char sym[256], call[400];
    if (at_elf_kernel_symbol(cubin, size, name, sym, sizeof sym) != 1)
        snprintf(sym, sizeof sym, "%s", name); /* the driver will say */
    CUresult r = at_cu.cuModuleGetFunction(fn, mod, sym);
    if (r == CUDA_SUCCESS)
        return 0;
    snprintf(call, sizeof call, "cuModuleGetFunction(%s): the source "
             "defines no __global__ function of that name", name);
    return at_cu_fail(e, r, call, variant);
}
