#include "reduce_cub.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/dl.h"
#include "base/safefile.h"
#include "gen/reduce.h"

extern char **environ;
/* templates/reduce_cub.cu, embedded into the command. */
extern const char at_tmpl_reduce_cub[];

typedef int (*cub_fn)(const void *in, void *out, long long rows,
                      long long cols, long long ld, void *temp,
                      size_t *temp_bytes, CUstream s);

enum { MAX_LIBS = 25 }; /* 5 types x 5 ops */

struct at_cub {
    int sm;
    char nvcc[AT_PATH_MAX], dir[AT_PATH_MAX], note[AT_PATH_MAX + 32];
    struct {
        char name[32]; /* "bf16_sum" */
        void *lib;
        cub_fn fn;
    } libs[MAX_LIBS];
    int n_libs;
    cub_fn fn; /* the prepared problem's */
    CUdeviceptr temp;
    size_t temp_bytes, temp_alloc;
};

static int find_nvcc(char *out, size_t n)
{
    const char *env = getenv("AUTOTUNE_NVCC"), *home = getenv("CUDA_HOME");
    char cand[3][AT_PATH_MAX];
    snprintf(cand[0], sizeof cand[0], "%s", env ? env : "");
    snprintf(cand[1], sizeof cand[1], "%s/bin/nvcc", home ? home : "");
    snprintf(cand[2], sizeof cand[2], "/usr/local/cuda/bin/nvcc");
    for (int i = 0; i < 3; ++i)
        if (cand[i][0] && access(cand[i], X_OK) == 0) {
            snprintf(out, n, "%s", cand[i]);
            return 1;
        }
    const char *path = getenv("PATH");
    for (const char *s = path; s && *s;) {
        const char *colon = strchr(s, ':');
        size_t len = colon ? (size_t)(colon - s) : strlen(s);
        snprintf(out, n, "%.*s/nvcc", (int)len, s);
        if (len && access(out, X_OK) == 0)
            return 1;
        s = colon ? colon + 1 : NULL;
    }
    return 0;
}

int at_cub_open(at_cub **out, const at_device *d, at_err *e)
{
    *out = NULL;
    at_cub *c = calloc(1, sizeof *c);
    if (!c)
        return at_fail(e, AUTOTUNE_ENOMEM, "CUB contender");
    if (!find_nvcc(c->nvcc, sizeof c->nvcc)) {
        free(c);
        return at_fail(e, AUTOTUNE_ENOT_FOUND, "CUB skipped: no nvcc "
                       "($AUTOTUNE_NVCC, $CUDA_HOME/bin, /usr/local/cuda/bin, "
                       "PATH) to build it");
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(c->dir, sizeof c->dir, "%s/autotune-cub-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(c->dir)) {
        free(c);
        return at_fail(e, AUTOTUNE_EIO, "mkdtemp(%s) for the CUB helper",
                       tmp && *tmp ? tmp : "/tmp");
    }
    c->sm = d->sm;
    snprintf(c->note, sizeof c->note, "CUB built by %s", c->nvcc);
    *out = c;
    return 0;
}

const char *at_cub_version(const at_cub *c) { return c->note; }

void at_cub_close(at_cub *c)
{
    if (!c)
        return;
    if (c->temp)
        at_cu.cuMemFree(c->temp);
    char path[AT_PATH_MAX + 64];
    for (int i = 0; i < c->n_libs; ++i) {
        snprintf(path, sizeof path, "%s/cub_%s.so", c->dir, c->libs[i].name);
        unlink(path);
        snprintf(path, sizeof path, "%s/cub_%s.log", c->dir, c->libs[i].name);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/reduce_cub.cu", c->dir);
    unlink(path);
    rmdir(c->dir);
    free(c);
}

const char *at_cub_cannot(const at_problem *p)
{
    return at_rd_down(p) ? "CUB has no reduction down columns" : NULL;
}

/* nvcc -O3 -arch=sm_XX -shared ... into dir/cub_NAME.so, its output into
 * cub_NAME.log (the tail of it in the error). */
static int build(at_cub *c, const at_problem *p, const char *name,
                 const char *so, at_err *e)
{
    const char *t = p->type->ctype, *acc = at_rd_acc_ctype(p->type);
    char src[AT_PATH_MAX + 32], log[AT_PATH_MAX + 64], arch[32], dt[64],
        da[64], dop[32];
    snprintf(src, sizeof src, "%s/reduce_cub.cu", c->dir);
    snprintf(log, sizeof log, "%s/cub_%s.log", c->dir, name);
    at_safefile sf;
    int rc = at_safefile_open(&sf, src, e);
    if (rc)
        return rc;
    fputs(at_tmpl_reduce_cub, sf.f);
    if ((rc = at_safefile_commit(&sf, e)))
        return rc;
    snprintf(arch, sizeof arch, "-arch=sm_%d", c->sm);
    snprintf(dt, sizeof dt, "-DAT_T=%s", t);
    snprintf(da, sizeof da, "-DAT_ACC=%s", acc);
    snprintf(dop, sizeof dop, "-DAT_OP=%d", (int)p->v[RD_OP]);
    char *argv[] = {c->nvcc, "-O3", arch, "-shared", "-Xcompiler", "-fPIC",
                    dt, da, dop, "-o", (char *)so, src, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int err = posix_spawn(&pid, c->nvcc, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    int status = 0;
    if (err)
        return at_fail(e, AUTOTUNE_EIO, "posix_spawn(%s): %s", c->nvcc,
                       strerror(err));
    while (waitpid(pid, &status, 0) < 0)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    char tail[400] = "";
    FILE *f = fopen(log, "r");
    if (f) {
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fseek(f, size > 399 ? size - 399 : 0, SEEK_SET);
        size_t got = fread(tail, 1, sizeof tail - 1, f);
        tail[got] = '\0';
        fclose(f);
    }
    return at_fail(e, AUTOTUNE_ECOMPILE, "nvcc building the CUB helper "
                   "(%s) failed (status %d): %s", name, status, tail);
}

static int load(at_cub *c, const at_problem *p, at_err *e)
{
    char name[32];
    snprintf(name, sizeof name, "%s_%s", p->type->name,
             at_rd_fields[RD_OP].choices[p->v[RD_OP]]);
    for (int i = 0; i < c->n_libs; ++i)
        if (strcmp(c->libs[i].name, name) == 0) {
            c->fn = c->libs[i].fn;
            return 0;
        }
    if (c->n_libs == MAX_LIBS)
        return at_fail(e, AUTOTUNE_EINVALID, "too many CUB helpers");
    char so[AT_PATH_MAX + 64], why[512];
    snprintf(so, sizeof so, "%s/cub_%s.so", c->dir, name);
    int rc = build(c, p, name, so, e);
    if (rc)
        return rc;
    const char *cand[] = {so};
    void *lib = at_dl_open_first(cand, 1, why, sizeof why);
    cub_fn fn = lib ? (cub_fn)at_dl_sym(lib, "at_cub_reduce") : NULL;
    if (!fn)
        return at_fail(e, AUTOTUNE_EIO, "loading the CUB helper: %s",
                       lib ? "no at_cub_reduce" : why);
    snprintf(c->libs[c->n_libs].name, sizeof c->libs[0].name, "%s", name);
    c->libs[c->n_libs].lib = lib;
    c->libs[c->n_libs++].fn = fn;
    c->fn = fn;
    return 0;
}

int at_cub_prepare(at_cub *c, const at_problem *p, at_err *e)
{
    int rc = load(c, p, e);
    if (rc)
        return rc;
    size_t bytes = 0;
    int cr = c->fn(NULL, NULL, p->v[RD_ROWS], p->v[RD_COLS], p->v[RD_LD],
                   NULL, &bytes, NULL);
    if (cr)
        return at_fail(e, AUTOTUNE_ECUDA, "CUB temp storage size: cuda "
                       "error %d", cr);
    rc = at_cu_grow(&c->temp, &c->temp_alloc, bytes, "cub", e);
    if (!rc)
        c->temp_bytes = bytes;
    return rc;
}

int at_cub_run(at_cub *c, const at_problem *p, CUdeviceptr in,
               CUdeviceptr out, CUstream s, at_err *e)
{
    size_t bytes = c->temp_bytes;
    int cr = c->fn((const void *)in, (void *)out, p->v[RD_ROWS],
                   p->v[RD_COLS], p->v[RD_LD], (void *)c->temp, &bytes, s);
    if (cr)
        return at_fail(e, AUTOTUNE_ECUDA, "cub::Device%sReduce: cuda "
                       "error %d", p->v[RD_ROWS] == 1 ? "" : "Segmented",
                       cr);
    return 0;
}
