#include "reduce_cub.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
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
    /* One source for every helper, written once: builds run at once. */
    char src[AT_PATH_MAX + 32];
    snprintf(src, sizeof src, "%s/reduce_cub.cu", c->dir);
    at_safefile sf;
    int rc = at_safefile_open(&sf, src, e);
    if (!rc) {
        fputs(at_tmpl_reduce_cub, sf.f);
        rc = at_safefile_commit(&sf, e);
    }
    if (rc) {
        rmdir(c->dir);
        free(c);
        return rc;
    }
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
    /* The folder is ours (mkdtemp): everything in it goes, the logs of
     * builds that failed too. */
    DIR *dir = opendir(c->dir);
    for (struct dirent *de; dir && (de = readdir(dir));) {
        char path[AT_PATH_MAX + 300];
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", c->dir, de->d_name);
            unlink(path);
        }
    }
    if (dir)
        closedir(dir);
    rmdir(c->dir);
    free(c);
}

const char *at_cub_cannot(const at_problem *p)
{
    return at_rd_down(p) ? "CUB has no reduction down columns" : NULL;
}

/* The helper's name ("bf16_sum"): one library per element type and op. */
static void helper_name(const at_problem *p, char *name, size_t n)
{
    snprintf(name, n, "%s_%s", p->type->name,
             at_rd_fields[RD_OP].choices[p->v[RD_OP]]);
}

static int find_lib(const at_cub *c, const char *name)
{
    for (int i = 0; i < c->n_libs; ++i)
        if (strcmp(c->libs[i].name, name) == 0)
            return i;
    return -1;
}

/* Starts nvcc -O3 -arch=sm_XX -shared ... into dir/cub_NAME.so, its output
 * into cub_NAME.log; *pid is the child's. */
static int spawn_build(const at_cub *c, const at_problem *p,
                       const char *name, pid_t *pid, at_err *e)
{
    const char *t = p->type->ctype, *acc = at_rd_acc_ctype(p->type);
    char src[AT_PATH_MAX + 32], so[AT_PATH_MAX + 64], log[AT_PATH_MAX + 64],
        arch[32], dt[64], da[64], dop[32];
    snprintf(src, sizeof src, "%s/reduce_cub.cu", c->dir);
    snprintf(so, sizeof so, "%s/cub_%s.so", c->dir, name);
    snprintf(log, sizeof log, "%s/cub_%s.log", c->dir, name);
    snprintf(arch, sizeof arch, "-arch=sm_%d", c->sm);
    snprintf(dt, sizeof dt, "-DAT_T=%s", t);
    snprintf(da, sizeof da, "-DAT_ACC=%s", acc);
    snprintf(dop, sizeof dop, "-DAT_OP=%d", (int)p->v[RD_OP]);
    char *argv[] = {(char *)c->nvcc, "-O3", arch, "-shared", "-Xcompiler",
                    "-fPIC", dt, da, dop, "-o", so, src, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    int err = posix_spawn(pid, c->nvcc, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (err)
        return at_fail(e, AUTOTUNE_EIO, "posix_spawn(%s) building the CUB "
                       "helper (%s): %s", c->nvcc, name, strerror(err));
    return 0;
}

/* Waits for the build of name (pid) and loads its library; an error
 * holds the tail of nvcc's output. */
static int finish_build(at_cub *c, const char *name, pid_t pid, at_err *e)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return at_fail(e, AUTOTUNE_EIO, "waitpid(%d) building the CUB "
                           "helper (%s): %s", (int)pid, name, strerror(errno));
    char so[AT_PATH_MAX + 64], log[AT_PATH_MAX + 64], why[512];
    snprintf(so, sizeof so, "%s/cub_%s.so", c->dir, name);
    snprintf(log, sizeof log, "%s/cub_%s.log", c->dir, name);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
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
    if (c->n_libs == MAX_LIBS)
        return at_fail(e, AUTOTUNE_EINVALID, "too many CUB helpers");
    const char *cand[] = {so};
    void *lib = at_dl_open_first(cand, 1, why, sizeof why);
    cub_fn fn = lib ? (cub_fn)at_dl_sym(lib, "at_cub_reduce") : NULL;
    if (!fn)
        return at_fail(e, AUTOTUNE_EIO, "loading the CUB helper (%s): %s",
                       name, lib ? "no at_cub_reduce" : why);
    snprintf(c->libs[c->n_libs].name, sizeof c->libs[0].name, "%s", name);
    c->libs[c->n_libs].lib = lib;
    c->libs[c->n_libs++].fn = fn;
    /* Loaded, the files can go: a run stopped by a signal leaves no
     * libraries in the temporary folder, only the source. */
    unlink(so);
    unlink(log);
    return 0;
}

static int load(at_cub *c, const at_problem *p, at_err *e)
{
    char name[32];
    helper_name(p, name, sizeof name);
    int i = find_lib(c, name);
    if (i < 0) {
        pid_t pid;
        int rc = spawn_build(c, p, name, &pid, e);
        if (!rc)
            rc = finish_build(c, name, pid, e);
        if (rc)
            return rc;
        i = c->n_libs - 1;
    }
    c->fn = c->libs[i].fn;
    return 0;
}

int at_cub_build_ahead(at_cub *c, const at_problem *const *ps, int n,
                       int jobs, FILE *log)
{
    /* The helpers missing, one problem each. */
    const at_problem *todo[MAX_LIBS];
    char names[MAX_LIBS][32];
    int n_todo = 0;
    for (int i = 0; i < n && n_todo < MAX_LIBS - c->n_libs; ++i) {
        char name[32];
        helper_name(ps[i], name, sizeof name);
        int seen = at_cub_cannot(ps[i]) || find_lib(c, name) >= 0;
        for (int k = 0; k < n_todo && !seen; ++k)
            seen = strcmp(names[k], name) == 0;
        if (seen)
            continue;
        snprintf(names[n_todo], sizeof names[0], "%s", name);
        todo[n_todo++] = ps[i];
    }
    if (jobs < 1) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = cores < 1 ? 1 : (int)cores;
    }
    if (jobs > n_todo)
        jobs = n_todo;
    if (!n_todo)
        return 0;
    if (log)
        fprintf(log, "CUB: building %d helper%s with nvcc, %d at a time\n",
                n_todo, n_todo == 1 ? "" : "s", jobs);
    /* A window of jobs builds, the oldest waited for first: waitpid on any
     * child would reap the tuner's compile workers. */
    pid_t pids[MAX_LIBS];
    int started = 0, head = 0, built = 0, failed = 0;
    double t0 = at_now_s();
    while (head < started || started < n_todo) {
        at_err e = {0};
        if (started < n_todo && started - head < jobs) {
            if (spawn_build(c, todo[started], names[started],
                            &pids[started], &e))
                pids[started] = -1, ++failed;
            ++started;
            continue;
        }
        if (pids[head] > 0) {
            if (finish_build(c, names[head], pids[head], &e))
                ++failed;
            else
                ++built;
        }
        ++head;
    }
    if (log)
        fprintf(log, "CUB: %d built in %.1f s%s\n", built,
                at_now_s() - t0, failed ? "; the problems of those that "
                "failed will say why" : "");
    return built;
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
