#include "transpose_baselines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/transpose.h"
#include "runtime/driver/driver.h"

/* templates/baselines.cu, embedded into the command (not the library) by
 * gen/embed.sh as build/cli/templates.c. */
extern const char at_tmpl_baselines[];

enum { SIZES = 5 }; /* element sizes 1, 2, 4, 8, 16 */

struct at_baselines {
    const at_device *d;
    CUmodule mod[SIZES];
    CUfunction fn[SIZES][2]; /* naive, classic */
};

at_baselines *at_baselines_create(const at_device *d)
{
    at_baselines *b = calloc(1, sizeof *b);
    if (b)
        b->d = d;
    return b;
}

void at_baselines_destroy(at_baselines *b)
{
    if (!b)
        return;
    for (int i = 0; i < SIZES; ++i)
        if (b->mod[i])
            at_cu.cuModuleUnload(b->mod[i]);
    free(b);
}

static int size_index(int bytes)
{
    int i = 0;
    while ((1 << i) < bytes)
        ++i;
    return i;
}

static int compile_size(at_baselines *b, int bytes, int i, at_err *e)
{
    char head[64];
    snprintf(head, sizeof head, "#define AT_ELEM_BYTES %d\n", bytes);
    size_t n = strlen(head) + strlen(at_tmpl_baselines) + 1;
    char *src = malloc(n);
    if (!src)
        return at_fail(e, AUTOTUNE_ENOMEM, "baselines source");
    snprintf(src, n, "%s%s", head, at_tmpl_baselines);
    at_compile_opts co = {.sm = b->d->sm};
    void *cubin = NULL;
    size_t size = 0;
    char variant[64];
    snprintf(variant, sizeof variant, "baselines, %d-byte elements", bytes);
    int rc = at_compile(src, variant, &co, &cubin, &size, e);
    free(src);
    if (rc)
        return rc;
    CUresult r = at_cu.cuModuleLoadData(&b->mod[i], cubin);
    free(cubin);
    if (r != CUDA_SUCCESS) {
        b->mod[i] = NULL;
        return at_cu_fail(e, r, "cuModuleLoadData", variant);
    }
    AT_CU_TRY(e, variant, cuModuleGetFunction, &b->fn[i][0], b->mod[i],
              "at_naive");
    AT_CU_TRY(e, variant, cuModuleGetFunction, &b->fn[i][1], b->mod[i],
              "at_classic");
    return 0;
}

int at_baselines_get(at_baselines *b, int bytes, int classic, CUfunction *fn,
                     at_err *e)
{
    int i = size_index(bytes);
    if (!b->mod[i]) {
        int rc = compile_size(b, bytes, i, e);
        if (rc)
            return rc;
    }
    *fn = b->fn[i][classic != 0];
    return 0;
}

int at_baselines_launch(CUfunction fn, const at_problem *p, CUdeviceptr in,
                        CUdeviceptr out, CUstream s, const char *name,
                        at_err *e)
{
    at_args a;
    p->family->ops.args(p, NULL, in, out, 0, 0, &a);
    int64_t gy = (p->v[TP_ROWS] + 31) / 32;
    unsigned gx = (unsigned)((p->v[TP_COLS] + 31) / 32);
    unsigned gyu = (unsigned)(gy > 65535 ? 65535 : gy);
    int64_t batch = p->v[TP_BATCH];
    unsigned gz = (unsigned)(batch > 65535 ? 65535 : batch);
    AT_CU_TRY(e, name, cuLaunchKernel, fn, gx, gyu, gz, 32, 8, 1, 0, s,
              a.ptr, NULL);
    return 0;
}
