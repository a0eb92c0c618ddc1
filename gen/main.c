/* autotune: the command line.
 *
 *   autotune transpose --arch auto [--type f32|f64] [--rows R] [--cols C]
 *                      [-o FILE] [--quiet] ...
 *   autotune space transpose [--type T] [--arch sm_XX]
 *
 * Exit status: 0 done, 1 failed, 2 bad usage. Errors are one line on
 * stderr. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../runtime/api_internal.h"
#include "../runtime/autotune_version.h"
#include "emit.h"
#include "family.h"

static const char *usage =
    "usage:\n"
    "  autotune FAMILY --arch auto|sm_XX [options]  tune and emit a .cu\n"
    "  autotune space FAMILY [--type T] [--arch sm_XX]  list the space\n"
    "  autotune --help | --version\n"
    "\n"
    "families: transpose\n"
    "options:\n"
    "  --arch auto      tune on this machine's GPU (default)\n"
    "  --arch sm_XX     emit for that architecture: tuned here if this GPU\n"
    "                   is one, else from the cache, else the default point\n"
    "  --type T         element type: f32 (default), f64\n"
    "  --rows R         input rows (default 8192)\n"
    "  --cols C         input columns (default 8192)\n"
    "  --ld-in N        elements between input rows (default: cols)\n"
    "  --ld-out N       elements between output rows (default: rows)\n"
    "  -o FILE          output .cu ('-': stdout; default\n"
    "                   FAMILY_TYPE_RxC.cu)\n"
    "  --name NAME      launcher name (default autotune_FAMILY_TYPE)\n"
    "  --device N       CUDA device ordinal (default 0)\n"
    "  --jobs N         compile threads (default: processors)\n"
    "  --seed S         seed of the random input (default: fresh, printed)\n"
    "  --quiet          no progress on stderr\n"
    "environment: AUTOTUNE_CACHE (cache file), XDG_CACHE_HOME, "
    "AUTOTUNE_NVRTC, AUTOTUNE_LIBCUDA\n";

typedef struct opts {
    const char *cmd, *family, *type, *arch, *out, *name;
    long long rows, cols, ld_in, ld_out, device, jobs;
    unsigned long long seed;
    int quiet;
} opts;

static int bad_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "autotune: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see autotune --help)\n");
    return 2;
}

/* A whole decimal number >= min; nothing else accepted. */
static int parse_num(const char *flag, const char *s, long long min,
                     long long *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (!*s || *end || errno == ERANGE || x < min) {
        fprintf(stderr,
                "autotune: %s needs a whole number %s %lld, got '%s'\n",
                flag, min > 0 ? "of at least" : ">=", min, s);
        return 2;
    }
    *v = x;
    return 0;
}

static int parse(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    o->type = "f32";
    o->arch = "auto";
    o->rows = o->cols = 8192;
    o->jobs = 0;
    int i = 1;
    if (i < argc && strcmp(argv[i], "space") == 0) {
        o->cmd = "space";
        o->arch = "sm_90";
        ++i;
    } else {
        o->cmd = "tune";
    }
    if (i >= argc || argv[i][0] == '-')
        return bad_usage("%s", "missing family");
    o->family = argv[i++];
    if (!at_family_find(o->family)) {
        fprintf(stderr, "autotune: unknown family '%s' (known: %s)\n",
                o->family, at_family_list());
        return 2;
    }
    /* Flags that take a value: a string, or a whole number >= min. */
    const struct {
        const char *flag;
        const char **str;
        long long *num, min;
    } flags[] = {
        {"--arch", &o->arch, NULL, 0},     {"--type", &o->type, NULL, 0},
        {"-o", &o->out, NULL, 0},          {"--name", &o->name, NULL, 0},
        {"--rows", NULL, &o->rows, 1},     {"--cols", NULL, &o->cols, 1},
        {"--ld-in", NULL, &o->ld_in, 1},   {"--ld-out", NULL, &o->ld_out, 1},
        {"--device", NULL, &o->device, 0}, {"--jobs", NULL, &o->jobs, 1},
    };
    for (; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quiet") == 0) {
            o->quiet = 1;
            continue;
        }
        size_t f = 0, nf = sizeof flags / sizeof flags[0];
        while (f < nf && strcmp(a, flags[f].flag) != 0)
            ++f;
        if (f == nf && strcmp(a, "--seed") != 0)
            return bad_usage("unknown option '%s'", a);
        if (!v)
            return bad_usage("%s needs a value", a);
        ++i;
        if (f == nf) { /* --seed: the whole unsigned 64-bit range but 0 */
            char *end;
            errno = 0;
            o->seed = strtoull(v, &end, 10);
            if (!*v || *end || errno == ERANGE || o->seed == 0 || *v == '-') {
                fprintf(stderr, "autotune: --seed needs a whole number from 1 "
                                "to %llu, got '%s'\n", ~0ULL, v);
                return 2;
            }
        } else if (flags[f].str) {
            *flags[f].str = v;
        } else if (parse_num(a, v, flags[f].min, flags[f].num)) {
            return 2;
        }
    }
    if (strcmp(o->cmd, "space") == 0 &&
        (o->out || o->name || o->device || o->jobs || o->seed || o->quiet))
        return bad_usage("%s", "space takes only --type, --arch, --rows, "
                               "--cols, --ld-in and --ld-out");
    if (!at_type_find(o->type)) {
        fprintf(stderr, "autotune: unknown type '%s' for %s (known: %s)\n",
                o->type, o->family, at_type_list());
        return 2;
    }
    if (o->name) {
        for (const char *c = o->name; *c; ++c)
            if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                  *c == '_' || (c != o->name && *c >= '0' && *c <= '9')))
                return bad_usage("--name '%s' is not a C identifier", o->name);
    }
    return 0;
}

/* "sm_90" -> 90; 0 unless "sm_" and two or three digits, no leading 0. */
static int parse_arch(const char *s)
{
    if (strncmp(s, "sm_", 3) != 0 || s[3] < '1' || s[3] > '9')
        return 0;
    int sm = 0, k = 3;
    for (; s[k] >= '0' && s[k] <= '9' && k < 6; ++k)
        sm = sm * 10 + (s[k] - '0');
    return s[k] == '\0' && k >= 5 ? sm : 0;
}

static autotune_problem flags_problem(const opts *o)
{
    autotune_problem u = {o->family, o->type, o->rows, o->cols, o->ld_in,
                          o->ld_out};
    return u;
}

/* The problem the flags describe; 2 (bad usage, said on stderr) if it is
 * not one. */
static int user_problem(const opts *o, at_problem *p)
{
    at_err e = {0};
    autotune_problem u = flags_problem(o);
    if (at_problem_init(p, &u, &e)) {
        fprintf(stderr, "autotune: %s\n", e.msg);
        return 2;
    }
    return 0;
}

static const char *known_archs = "70, 75, 80, 86, 87, 89, 90, 100, 120";

static int cmd_space(const opts *o)
{
    at_limits l;
    int sm = parse_arch(o->arch);
    if (!sm || !at_limits_for_arch(sm, &l)) {
        fprintf(stderr, "autotune: space needs --arch sm_XX of a known "
                        "architecture (%s), got '%s'\n", known_archs, o->arch);
        return 2;
    }
    at_err e = {0};
    at_problem p;
    if (user_problem(o, &p))
        return 2;
    const at_family *f = p.family;
    printf("family %s, type %s, sm_%d (%d threads, %d bytes of shared "
           "memory per block)\naxes:\n",
           f->name, p.type->name, sm, l.max_threads, l.max_smem);
    for (int a = 0; a < f->n_axes; ++a) {
        printf("  %-9s", f->axes[a].name);
        for (int k = 0; k < f->axes[a].n; ++k)
            printf("%s%d", k ? "," : " ", f->axes[a].values[k]);
        printf("  (%s)\n", f->axes[a].help);
    }
    if (f->derived)
        printf("derived:\n  %s\n", f->derived);
    at_point *pts;
    size_t n;
    if (at_space_points(f, &p, &l, &pts, &n, &e)) {
        fprintf(stderr, "autotune: %s\n", e.msg);
        return 1;
    }
    printf("points: %zu before constraints, %zu after\n", at_space_size(f),
           n);
    for (size_t i = 0; i < n; ++i) {
        char name[128];
        f->point_name(&pts[i], name, sizeof name);
        printf("%s\n", name);
    }
    free(pts);
    return 0;
}

static void command_line(int argc, char **argv, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < argc && used < n; ++i)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? " " : "",
                                 i ? argv[i] : "autotune");
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* No device of the asked architecture: emit from the cache or from the
 * default point, saying which. */
/* The summary goes to stdout, unless the .cu itself does. */
static FILE *info_stream(const char *out)
{
    return strcmp(out, "-") == 0 ? stderr : stdout;
}

static int emit_offline(const opts *o, const at_problem *p, int sm,
                        const char *why_no_gpu, const char *out,
                        const char *name, const char *cmdline)
{
    FILE *info = info_stream(out);
    at_err e = {0};
    at_limits l;
    if (!at_limits_for_arch(sm, &l)) {
        fprintf(stderr, "autotune: unknown architecture sm_%d (known: %s)\n",
                sm, known_archs);
        return 2;
    }
    char path[1024];
    at_cache *c = NULL;
    at_key key;
    at_entry en;
    int hit = 0;
    int rc = at_cache_default_path(path, sizeof path, &e);
    if (!rc)
        rc = at_cache_open(&c, path, &e);
    if (!rc)
        rc = at_key_fill(&key, NULL, p, &l, &e);
    if (!rc) {
        hit = at_cache_find_arch(c, &key, &en, &e);
        rc = hit < 0 ? hit : 0;
        if (e.msg[0] && !rc && !o->quiet)
            fprintf(stderr, "autotune: cache: %s\n", e.msg);
    }
    at_point pt;
    if (hit == 1 && !at_entry_point(p, &l, &en, &pt)) {
        if (!o->quiet)
            fprintf(stderr, "autotune: cache: entry point '%s' (%s) is not a "
                    "valid point of this build; not used\n", en.point,
                    en.params);
        at_entry_free(&en);
        hit = 0;
    }
    at_provenance pv = {0};
    pv.sm = sm;
    pv.command = cmdline;
    if (!rc && hit == 1) {
        pv.tuned = 1;
        pv.gpu = en.key.gpu;
        pv.sms = en.key.sms;
        pv.driver = en.key.driver;
        pv.driver_build = en.key.driver_build;
        pv.nvrtc = en.key.nvrtc;
        pv.tuned_at = en.created;
        pv.median_ms = en.median_ms;
        pv.gbps = en.gbps;
        pv.copy_gbps = en.copy_gbps;
        pv.frac_copy = en.frac_copy;
    } else if (!rc) {
        p->family->default_point(p, sm, &pt);
        pv.why = "no GPU of this architecture here and no cache entry";
    }
    if (!rc)
        rc = at_emit(out, p, &pt, name, &pv, &e);
    if (!rc) {
        char pname[128];
        p->family->point_name(&pt, pname, sizeof pname);
        if (hit == 1)
            fprintf(info, "autotune: sm_%d: from the cache (tuned %s on %s): %s, "
                   "%.1f GB/s, %.1f%% of copy\n", sm, en.created, en.key.gpu,
                   pname, en.gbps, 100 * en.frac_copy);
        else
            fprintf(info, "autotune: sm_%d: NOT TUNED (%s; %s): default point %s\n",
                   sm, why_no_gpu,
                   "no cache entry for this architecture and problem", pname);
        if (strcmp(out, "-") != 0)
            fprintf(info, "  wrote %s\n", out);
    }
    if (hit == 1)
        at_entry_free(&en);
    at_cache_close(c);
    if (rc) {
        fprintf(stderr, "autotune: %s\n", e.msg);
        return 1;
    }
    return 0;
}

static int cmd_tune(const opts *o, const char *cmdline)
{
    at_err e = {0};
    at_problem p;
    if (user_problem(o, &p))
        return 2;
    autotune_problem u = flags_problem(o);
    int want_sm = 0;
    if (strcmp(o->arch, "auto") != 0 && !(want_sm = parse_arch(o->arch))) {
        fprintf(stderr, "autotune: --arch must be auto or sm_XX (as sm_90), "
                        "got '%s'\n", o->arch);
        return 2;
    }
    char out[1024], name[128];
    if (o->out)
        snprintf(out, sizeof out, "%s", o->out);
    else
        snprintf(out, sizeof out, "%s_%s_%lldx%lld.cu", p.family->name,
                 p.type->name, (long long)p.rows, (long long)p.cols);
    if (o->name)
        snprintf(name, sizeof name, "%s", o->name);
    else
        snprintf(name, sizeof name, "autotune_%s_%s", p.family->name,
                 p.type->name);

    double t0 = now_s();
    autotune_ctx *ctx = NULL;
    char path[1024];
    int rc = at_cache_default_path(path, sizeof path, &e);
    if (!rc)
        rc = at_ctx_create(&ctx, (int)o->device, path,
                           o->quiet ? NULL : stderr, &e);
    if (rc == AUTOTUNE_ENO_DRIVER || rc == AUTOTUNE_ENO_DEVICE ||
        (rc == AUTOTUNE_ENO_NVRTC && want_sm) ||
        (!rc && want_sm && ctx->dev.sm != want_sm)) {
        if (!want_sm) {
            fprintf(stderr,
                    "autotune: %s (--arch auto needs a CUDA GPU; --arch sm_XX "
                    "emits for an architecture without one)\n",
                    e.msg);
            return 1;
        }
        char why[1100];
        if (rc)
            snprintf(why, sizeof why, "%s", e.msg);
        else
            snprintf(why, sizeof why, "this GPU is %s, sm_%d", ctx->dev.name,
                     ctx->dev.sm);
        autotune_destroy(ctx);
        return emit_offline(o, &p, want_sm, why, out, name, cmdline);
    }
    if (rc) {
        fprintf(stderr, "autotune: %s\n", e.msg);
        return 1;
    }
    at_device *d = &ctx->dev;
    at_tune_opts to = {(int)o->jobs, o->seed, o->quiet ? NULL : stderr, NULL};
    at_tuned t;
    autotune_kernel *k = NULL;
    rc = at_ctx_get(ctx, &u, &to, &k, &t);
    if (rc) {
        fprintf(stderr, "autotune: %s\n", autotune_last_error(ctx));
        at_tuned_free(&t);
        autotune_destroy(ctx);
        return 1;
    }
    char prob[256];
    FILE *info = info_stream(out);
    at_problem_str(&p, prob, sizeof prob);
    fprintf(info, "autotune: %s on %s (sm_%d, %d SMs, driver %s, CUDA %d.%d, "
           "NVRTC %s)\n",
           prob, d->name, d->sm, d->sms, d->driver_build,
           d->driver_version / 1000, d->driver_version % 1000 / 10, d->nvrtc);
    if (k->fig.from_cache)
        fprintf(info, "  from the cache %s (tuned %s): no compile, no timing, "
               "%.2f s\n", at_cache_path(ctx->cache), k->created,
               now_s() - t0);
    else
        fprintf(info, "  tuned in %.1f s: %zu points (of %zu before constraints), "
               "%zu compiled, %zu failed to compile, %zu wrong, %zu timed; "
               "seed %llu\n  time: NVRTC %.0f CPU-s on %d threads, GPU "
               "(load, check, time) %.1f s\n",
               t.seconds, t.points, t.space_total, t.compiled,
               t.compile_failed, t.wrong, t.timed,
               (unsigned long long)t.seed, t.nvrtc_cpu_s, t.threads, t.gpu_s);
    fprintf(info, "  best: %s\n  median %.4f ms, %.1f GB/s, %.1f%% of the "
           "device-to-device copy (%.1f GB/s); %d registers, %d B shared, "
           "%d B local\n",
           k->name, k->fig.median_ms, k->fig.gbps, 100 * k->fig.frac_copy,
           k->fig.copy_gbps, k->fig.registers, k->fig.shared_bytes,
           k->fig.local_bytes);
    at_provenance pv = {
        .tuned = 1, .gpu = d->name, .sm = d->sm, .sms = d->sms,
        .driver = d->driver_version, .driver_build = d->driver_build,
        .nvrtc = d->nvrtc,
        .tuned_at = k->created, .median_ms = k->fig.median_ms,
        .gbps = k->fig.gbps, .copy_gbps = k->fig.copy_gbps,
        .frac_copy = k->fig.frac_copy, .command = cmdline};
    rc = at_emit(out, &k->p, &k->pt, name, &pv, &e);
    if (rc)
        fprintf(stderr, "autotune: %s\n", e.msg);
    else if (strcmp(out, "-") != 0)
        fprintf(info, "  wrote %s\n", out);
    at_tuned_free(&t);
    autotune_kernel_destroy(k);
    autotune_destroy(ctx);
    return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return bad_usage("%s", "missing command");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("autotune %s\n", AUTOTUNE_VERSION);
        return 0;
    }
    opts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc;
    if (strcmp(o.cmd, "space") == 0)
        return cmd_space(&o);
    char cmdline[2048];
    command_line(argc, argv, cmdline, sizeof cmdline);
    return cmd_tune(&o, cmdline);
}
