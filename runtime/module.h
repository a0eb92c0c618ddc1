/* A kernel of a loaded cubin by the name its source gave it: extern "C"
 * or C++ (a user's kernel from a spec need not be extern "C"; NVRTC then
 * lowers the name, and the cubin's symbol table says to what). */
#ifndef AT_MODULE_H
#define AT_MODULE_H

#include "cuda_api.h"

/* fn: kernel `name` of mod, loaded from cubin. A name the cubin does not
 * define is AUTOTUNE_ECUDA naming it, the variant and the call. */
int at_module_function(CUmodule mod, const void *cubin, size_t size,
                       const char *name, CUfunction *fn, const char *variant,
                       at_err *e);

#endif
