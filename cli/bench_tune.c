/* `autotune bench tune [FAMILY]`: how long tuning takes, as a user sees
 * it. For each problem (8192 x 8192 f32 and f64 by default, or the one the
 * flags give), three runs of `autotune FAMILY --arch auto` as child
 * processes of this binary, on caches of their own in a temporary
 * directory, with NVRTC's own on-disk cache off (CUDA_CACHE_DISABLE=1):
 *   cold  empty caches: every variant compiled;
 *   warm  --retune: every variant from the compiled-variant cache;
 *   hit   the tuned cache entry: nothing compiled or timed.
 * First, the host's NVRTC speed (bench_calibrate.c): rows calibrate-alone
 * and calibrate-busy, whose compiled counts points and nvrtc_cpu_s is
 * their CPU time in all, as a tune's.
 * Wall time is the child's, from fork to exit. CSV columns: gpu, type,
 * rows, cols, cache, wall_s, variants_per_s, nvrtc_cpu_s, best_ms (the
 * issue's), then compiled, workers, point. Figures a run does not have
 * (a hit's variants/s) are empty. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/safefile.h"
#include "bench_tune.h"
#include "commands.h"
#include "errors.h"
#include "json.h"
#include "gen/family.h"
#include "runtime/driver/driver.h"

static const char *const run_name[N_KINDS] = {
    "cold", "warm", "hit", "calibrate-alone", "calibrate-busy"};

typedef bench_tune_row row;

/* Removes dir and the files in it (the runs' caches and outputs). */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d))) {
            if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                continue;
            char path[AT_PATH_MAX + 256];
            snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* The child's command line: FAMILY --arch auto, the problem's fields as
 * flags, the forwarded options. */
typedef struct argv_buf {
    char *v[64];
    char text[4096];
    size_t used;
    int n;
} argv_buf;

static void arg(argv_buf *a, const char *s)
{
    size_t len = strlen(s) + 1;
    if (a->n + 1 >= (int)(sizeof a->v / sizeof a->v[0]) ||
        a->used + len > sizeof a->text)
        return; /* cannot happen: a family has at most 16 fields */
    a->v[a->n++] = memcpy(a->text + a->used, s, len);
    a->v[a->n] = NULL;
    a->used += len;
}

static void child_args(argv_buf *a, const char *self, const opts *o,
                       const at_problem *p, const char *dir, int cache)
{
    char buf[512];
    memset(a, 0, sizeof *a);
    arg(a, self);
    arg(a, p->family->name);
    arg(a, "--arch");
    arg(a, "auto");
    arg(a, "--type");
    arg(a, p->type->name);
    /* The problem's key text, which parses back to the same problem:
     * "rows=8192 cols=8192 ..." as "--rows 8192 --cols 8192 ...". */
    char key[1024], *save = NULL;
    at_problem_key_text(p, key, sizeof key);
    for (char *t = strtok_r(key, " ", &save); t;
         t = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(t, '=');
        if (!eq)
            continue; /* cannot happen: every field is name=value */
        *eq = '\0';
        at_field_flag(t, buf, sizeof buf);
        arg(a, buf);
        arg(a, eq + 1);
    }
    snprintf(buf, sizeof buf, "%lld", o->device);
    arg(a, "--device");
    arg(a, buf);
    if (o->jobs) {
        snprintf(buf, sizeof buf, "%lld", o->jobs);
        arg(a, "--jobs");
        arg(a, buf);
    }
    if (o->limit) {
        arg(a, "--compile-limit");
        arg(a, o->limit);
    }
    if (o->klimit) {
        arg(a, "--kernel-limit");
        arg(a, o->klimit);
    }
    if (o->quiet)
        arg(a, "--quiet");
    if (cache == WARM)
        arg(a, "--retune");
    snprintf(buf, sizeof buf, "%s/out.cu", dir);
    arg(a, "-o");
    arg(a, buf);
    arg(a, "--json");
}

/* Runs the child, its JSON summary into *out (malloc'd). 0, or 1 said. */
static int spawn(char *const *argv, const char *dir, char **out,
                 double *wall_s)
{
    int fd[2];
    if (pipe(fd)) {
        at_cli_say("bench tune: pipe: %s\n", strerror(errno));
        return 1;
    }
    double t0 = at_now_s();
    pid_t pid = fork();
    if (pid < 0) {
        at_cli_say("bench tune: fork: %s\n", strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return 1;
    }
    if (pid == 0) {
        char cache[AT_PATH_MAX + 32], cubins[AT_PATH_MAX + 32];
        snprintf(cache, sizeof cache, "%s/cache.db", dir);
        snprintf(cubins, sizeof cubins, "%s/cubins.db", dir);
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        if (setenv("AUTOTUNE_CACHE", cache, 1) ||
            setenv("AUTOTUNE_CUBIN_CACHE", cubins, 1) ||
            setenv("CUDA_CACHE_DISABLE", "1", 1))
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    size_t len = 0, cap = 65536;
    char *buf = malloc(cap);
    for (ssize_t k; buf;) {
        if (len + 1 == cap) {
            char *g = realloc(buf, cap *= 2);
            if (!g) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = g;
        }
        k = read(fd[0], buf + len, cap - 1 - len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        len += (size_t)k;
    }
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    *wall_s = at_now_s() - t0;
    if (!buf) {
        at_cli_say("%s\n", "bench tune: out of memory reading a run's JSON");
        return 1;
    }
    buf[len] = '\0';
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        at_cli_say("bench tune: `%s %s ...` %s %d\n", argv[0], argv[1],
                   WIFEXITED(status) ? "exited with status" : "ended by signal",
                   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        free(buf);
        return 1;
    }
    *out = buf;
    return 0;
}

static double num(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* An integer field, -1 where there is none (a hit has no counts). */
static long long count(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

/* One run of p into r: spawned, its summary read and checked against what
 * the run must have been. 0, or 1 said. */
static int one_run(const char *self, const opts *o, const at_problem *p,
                   const char *dir, int cache, row *r)
{
    argv_buf a;
    child_args(&a, self, o, p, dir, cache);
    char *text = NULL;
    memset(r, 0, sizeof *r);
    r->p = *p;
    r->cache = cache;
    if (spawn(a.v, dir, &text, &r->wall_s))
        return 1;
    json_error_t je;
    json_t *j = json_loads(text, 0, &je);
    free(text);
    if (!j) {
        at_cli_say("bench tune: a %s run's JSON: %s (line %d)\n",
                   run_name[cache], je.text, je.line);
        return 1;
    }
    const char *how = json_string_value(json_object_get(j, "how"));
    const char *point = json_string_value(json_object_get(j, "point"));
    const char *gpu = json_string_value(json_object_get(j, "gpu"));
    long long from_cc = count(j, "from_compile_cache");
    r->compiled = count(j, "compiled");
    r->workers = count(j, "compile_workers");
    r->variants_per_s = num(j, "variants_per_s");
    r->nvrtc_cpu_s = num(j, "nvrtc_cpu_s");
    r->best_ms = num(j, "median_ms");
    snprintf(r->point, sizeof r->point, "%s", point ? point : "");
    /* A row is what its name says, or no row. */
    const char *bad = NULL;
    if (!how || !point || !gpu)
        bad = "lacks how, point or gpu";
    else if (cache == HIT && strcmp(how, "cached") != 0)
        bad = "was not a cache hit";
    else if (cache != HIT && strcmp(how, "tuned") != 0)
        bad = "did not tune";
    else if (cache == COLD && (from_cc != 0 || r->compiled <= 0))
        bad = "found compiled variants in an empty cache";
    else if (cache == WARM && r->compiled != 0)
        bad = "compiled variants the cold run had stored";
    json_decref(j);
    if (bad) {
        at_cli_say("bench tune: the %s run %s\n", run_name[cache], bad);
        return 1;
    }
    if (cache == HIT) {
        r->variants_per_s = r->nvrtc_cpu_s = NAN;
        r->compiled = r->workers = 0;
    }
    return 0;
}

/* "h100" from "NVIDIA H100 80GB HBM3": the default CSV's stem. */
static void gpu_slug(const char *name, char *buf, size_t n)
{
    if (strncmp(name, "NVIDIA ", 7) == 0)
        name += 7;
    size_t k = 0;
    for (; *name && *name != ' ' && k + 1 < n; ++name)
        buf[k++] = (char)((*name >= 'A' && *name <= 'Z') ? *name + 32
                          : ((*name >= 'a' && *name <= 'z') ||
                             (*name >= '0' && *name <= '9'))
                              ? *name
                              : '-');
    buf[k] = '\0';
    if (k == 0)
        snprintf(buf, n, "gpu");
}

static void csv_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, ",%.17g", v);
    else
        fputc(',', f);
}

/* A field by name ("rows"), -1 where the family has none. */
static long long field(const at_problem *p, const char *name)
{
    int i = at_field_index(p->family, name);
    return i < 0 ? -1 : (long long)p->v[i];
}

static void csv_row(FILE *f, const char *gpu, const row *r)
{
    /* A GPU's name has no comma or quote; keep it so. */
    fprintf(f, "%s,%s,", gpu, r->p.type->name);
    if (field(&r->p, "rows") >= 0)
        fprintf(f, "%lld", field(&r->p, "rows"));
    fputc(',', f);
    if (field(&r->p, "cols") >= 0)
        fprintf(f, "%lld", field(&r->p, "cols"));
    fprintf(f, ",%s", run_name[r->cache]);
    csv_num(f, r->wall_s);
    csv_num(f, r->variants_per_s);
    csv_num(f, r->nvrtc_cpu_s);
    csv_num(f, r->best_ms);
    fprintf(f, ",%lld,%lld,%s\n", r->compiled, r->workers, r->point);
}

static void table(FILE *f, const char *gpu, const row *rows, int n)
{
    fprintf(f, "\ntuning times on %s (CUDA_CACHE_DISABLE=1)\n", gpu);
    fprintf(f, "%-5s %-13s %-15s %8s %10s %9s %10s  %s\n", "type", "shape",
            "cache", "wall s", "variants/s", "NVRTC s", "best ms", "point");
    for (int i = 0; i < n; ++i) {
        const row *r = &rows[i];
        char shape[256], vps[32] = "", cpu[32] = "";
        r->p.family->ops.file_stem(&r->p, shape, sizeof shape);
        if (isfinite(r->variants_per_s))
            snprintf(vps, sizeof vps, "%.0f", r->variants_per_s);
        if (isfinite(r->nvrtc_cpu_s))
            snprintf(cpu, sizeof cpu, "%.0f", r->nvrtc_cpu_s);
        char best[32] = "-";
        if (isfinite(r->best_ms))
            snprintf(best, sizeof best, "%.4f", r->best_ms);
        fprintf(f, "%-5s %-13s %-15s %8.2f %10s %9s %10s  %s\n",
                r->p.type->name, shape, run_name[r->cache], r->wall_s, vps,
                cpu, best, r->point);
    }
}

static int print_json(const char *gpu, const char *csv, const row *rows,
                      int n)
{
    json_t *o = at_json_object("autotune.bench-tune/1");
    at_json_str(o, "gpu", gpu);
    at_json_str(o, "csv", csv);
    json_t *runs = json_array();
    for (int i = 0; i < n; ++i) {
        const row *r = &rows[i];
        json_t *k = at_json_problem(at_json_object(NULL), &r->p);
        at_json_str(k, "cache", run_name[r->cache]);
        at_json_real(k, "wall_s", r->wall_s);
        if (r->cache != HIT) {
            at_json_real(k, "variants_per_s", r->variants_per_s);
            at_json_real(k, "nvrtc_cpu_s", r->nvrtc_cpu_s);
            at_json_int(k, "compiled", r->compiled);
            at_json_int(k, "compile_workers", r->workers);
        }
        if (r->cache >= N_RUNS) /* a calibration chooses nothing */
            at_json_put(k, "best_ms", json_null());
        else
            at_json_real(k, "best_ms", r->best_ms);
        at_json_str(k, "point", r->point);
        json_array_append_new(runs, k);
    }
    at_json_put(o, "runs", runs);
    return at_json_print(o) ? 1 : 0;
}

/* The problems: the one the flags give, or f32 and f64 at 8192 x 8192. */
static int problems(const opts *o, at_problem *ps, int *n)
{
    if (o->shape_given) {
        *n = 1;
        return at_opts_problem(o, &ps[0]);
    }
    static const char *const types[] = {"f32", "f64"};
    *n = 0;
    for (size_t i = 0; i < sizeof types / sizeof *types; ++i) {
        at_err e = {0};
        if (at_problem_begin(&ps[*n], o->family, types[i], &e) ||
            at_problem_finish(&ps[*n], &e)) {
            at_cli_fail(&e);
            return 1;
        }
        ++*n;
    }
    return 0;
}

int at_cmd_bench_tune(const opts *o, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    at_problem ps[2];
    int np = 0, rc = problems(o, ps, &np);
    if (rc)
        return rc;
    char self[AT_PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) {
        at_cli_say("bench tune: cannot find this binary to run it "
                   "(/proc/self/exe): %s\n", strerror(errno));
        return 1;
    }
    self[len] = '\0';
    /* Fail here, once, where there is no GPU: not in every child. */
    at_err e = {0};
    char gpu[256], slug[64], csv[AT_PATH_MAX];
    int sm = 0;
    if ((rc = at_bench_device((int)o->device, gpu, sizeof gpu, &sm, &e))) {
        at_cli_fail_hint(&e, rc == AUTOTUNE_ENO_DRIVER ||
                                     rc == AUTOTUNE_ENO_DEVICE
                                 ? " (bench tune needs a CUDA GPU)"
                                 : "");
        return 1;
    }
    gpu_slug(gpu, slug, sizeof slug);
    if (o->csv)
        snprintf(csv, sizeof csv, "%s", o->csv);
    else
        snprintf(csv, sizeof csv, "%s-tune.csv", slug);
    at_safefile sf;
    if (at_safefile_open(&sf, csv, &e)) {
        at_cli_fail(&e);
        return 1;
    }
    fprintf(sf.f, "gpu,type,rows,cols,cache,wall_s,variants_per_s,"
                  "nvrtc_cpu_s,best_ms,compiled,workers,point\n");
    row rows[2 + 2 * N_RUNS];
    int n = 0;
    if (!o->quiet)
        at_cli_say("%s\n", "bench tune: NVRTC's speed on this host");
    if ((rc = at_bench_calibrate(sm, (int)o->jobs, rows)) == 0) {
        csv_row(sf.f, gpu, &rows[n++]);
        csv_row(sf.f, gpu, &rows[n++]);
    }
    for (int i = 0; i < np && !rc; ++i) {
        const char *tmp = getenv("TMPDIR");
        char dir[AT_PATH_MAX];
        snprintf(dir, sizeof dir, "%s/autotune-bench-tune-XXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir)) {
            at_cli_say("bench tune: mkdtemp %s: %s\n", dir, strerror(errno));
            rc = 1;
            break;
        }
        for (int c = 0; c < N_RUNS && !rc; ++c) {
            char prob[256];
            at_problem_str(&ps[i], prob, sizeof prob);
            if (!o->quiet)
                at_cli_say("bench tune: %s, %s\n", prob, run_name[c]);
            rc = one_run(self, o, &ps[i], dir, c, &rows[n]);
            if (!rc)
                csv_row(sf.f, gpu, &rows[n++]);
        }
        remove_dir(dir);
    }
    if (rc) {
        at_safefile_keep(&sf);
        at_cli_say("bench tune: the rows so far are in %s\n", sf.tmp);
        return 1;
    }
    if (at_safefile_commit(&sf, &e)) {
        at_cli_fail(&e);
        return 1;
    }
    table(o->json ? stderr : stdout, gpu, rows, n);
    if (o->json)
        return print_json(gpu, csv, rows, n);
    printf("CSV: %s\n", csv);
    return 0;
}
