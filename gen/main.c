/* autotune: the command line.
 *
 *   autotune transpose --arch auto [--type f32|f64] [--rows R] [--cols C]
 *                      [-o FILE] [--strategy S] [--budget N|Ts] ...
 *   autotune space transpose [--type T] [--arch sm_XX]
 *   autotune replay FILE.csv [--json] [--seeds N] [--strategy S]
 *   autotune bench transpose [--csv FILE] [problem flags] [tuning flags]
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
#include "../search/replay.h"
#include "bench_cmd.h"
#include "emit.h"
#include "family.h"
#include "json.h"

static const char *usage =
    "usage:\n"
    "  autotune FAMILY --arch auto|sm_XX [options]  tune and emit a .cu\n"
    "  autotune space FAMILY [--type T] [--arch sm_XX]  list the space\n"
    "  autotune replay FILE.csv [--json] [--seeds N] [--strategy S]\n"
    "                   run the strategies on a recorded space, no GPU\n"
    "  autotune bench FAMILY [--csv FILE] [options]\n"
    "                   bandwidth against memcpy, cuBLAS and the classic\n"
    "                   kernels: the suite, or the problem the flags give\n"
    "  autotune --help | --version\n"
    "\n"
    "families: transpose\n"
    "options:\n"
    "  --arch auto      tune on this machine's GPU (default)\n"
    "  --arch sm_XX     emit for that architecture: tuned here if this GPU\n"
    "                   is one, else from the cache, else the default point\n"
    "  --type T         element type: i8, u8, f16, bf16, f32 (default), f64,\n"
    "                   c64, c128, f32x4\n"
    "  --rows R         input rows (default 8192)\n"
    "  --cols C         input columns (default 8192)\n"
    "  --ld-in N        elements between input rows (default: cols)\n"
    "  --ld-out N       elements between output rows (default: rows)\n"
    "  --batch B        matrices (default 1)\n"
    "  --stride-in N    elements between input matrices (default:\n"
    "                   rows * ld-in)\n"
    "  --stride-out N   elements between output matrices (default:\n"
    "                   cols * ld-out)\n"
    "  -o FILE          output .cu ('-': stdout; default\n"
    "                   FAMILY_TYPE_RxC.cu, FAMILY_TYPE_BxRxC.cu)\n"
    "  --name NAME      launcher name (default autotune_FAMILY_TYPE)\n"
    "  --device N       CUDA device ordinal (default 0)\n"
    "  --jobs N         compile threads (default: processors)\n"
    "  --seed S         seed of the random input and the search (default:\n"
    "                   fresh, printed)\n"
    "  --strategy S     exhaustive (default), random, local, genetic\n"
    "  --budget N|Ts    stop after N evaluations or T seconds of search;\n"
    "                   a budgeted winner is not stored in the cache\n"
    "  --record F.csv   write every evaluation (implies --retune)\n"
    "  --retune         tune even if the cache has an answer\n"
    "  --json           the run's summary as JSON on stdout\n"
    "  --compile-limit S  seconds per variant's compilation (default 60)\n"
    "  --no-compile-cache  compile every variant (no compiled-variant cache)\n"
    "  --warm-l2        time from L2 (no buffer rotation for small inputs)\n"
    "  --seeds N        replay: seeds per strategy (default 100)\n"
    "  --csv FILE       bench: where the CSV goes (default\n"
    "                   bench_FAMILY.csv)\n"
    "  --quiet          no progress on stderr\n"
    "environment: AUTOTUNE_CACHE (cache file), AUTOTUNE_CUBIN_CACHE\n"
    "  (compiled variants; default beside the cache), XDG_CACHE_HOME,\n"
    "  AUTOTUNE_NVRTC, AUTOTUNE_LIBCUDA\n";

typedef struct opts {
    const char *cmd, *family, *type, *arch, *out, *name;
    const char *strategy, *budget, *record, *limit, *file, *csv;
    long long rows, cols, ld_in, ld_out, batch, stride_in, stride_out;
    long long device, jobs, seeds;
    int shape_given; /* --type or a shape flag: bench takes one problem */
    unsigned long long seed;
    int quiet, json, retune, no_cubins, warm_l2;
    size_t budget_evals;
    double budget_s, limit_s;
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

/* "200" evaluations or "10s" seconds. */
static int parse_budget(opts *o)
{
    char *end;
    errno = 0;
    const char *b = o->budget;
    if (*b >= '0' && *b <= '9') {
        double v = strtod(b, &end);
        if (!errno && strcmp(end, "s") == 0 && v > 0 && v <= 86400) {
            o->budget_s = v;
            return 0;
        }
        unsigned long long n = strtoull(b, &end, 10);
        if (!errno && !*end && n > 0) {
            o->budget_evals = (size_t)n;
            return 0;
        }
    }
    return bad_usage("--budget needs evaluations (200) or seconds (10s), "
                     "more than 0, got '%s'", b);
}

static int parse(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    o->type = "f32";
    o->arch = "auto";
    o->rows = o->cols = 8192;
    o->jobs = 0;
    o->seeds = 100;
    int i = 1;
    if (i < argc && strcmp(argv[i], "space") == 0) {
        o->cmd = "space";
        o->arch = "sm_90";
        ++i;
    } else if (i < argc && strcmp(argv[i], "bench") == 0) {
        o->cmd = "bench";
        ++i;
    } else if (i < argc && strcmp(argv[i], "replay") == 0) {
        o->cmd = "replay";
        ++i;
        if (i >= argc || argv[i][0] == '-')
            return bad_usage("%s", "replay needs a record (FILE.csv)");
        o->file = argv[i++];
    } else {
        o->cmd = "tune";
    }
    if (strcmp(o->cmd, "replay") != 0) {
        if (i >= argc || argv[i][0] == '-')
            return bad_usage("%s", "missing family");
        o->family = argv[i++];
        if (!at_family_find(o->family)) {
            fprintf(stderr, "autotune: unknown family '%s' (known: %s)\n",
                    o->family, at_family_list());
            return 2;
        }
    }
    /* Flags that take a value: a string, or a whole number >= min;
     * shape: the flag describes the problem. */
    const struct {
        const char *flag;
        const char **str;
        long long *num, min;
        int shape;
    } flags[] = {
        {"--arch", &o->arch, NULL, 0, 0},
        {"--type", &o->type, NULL, 0, 1},
        {"-o", &o->out, NULL, 0, 0},
        {"--name", &o->name, NULL, 0, 0},
        {"--rows", NULL, &o->rows, 1, 1},
        {"--cols", NULL, &o->cols, 1, 1},
        {"--ld-in", NULL, &o->ld_in, 1, 1},
        {"--ld-out", NULL, &o->ld_out, 1, 1},
        {"--batch", NULL, &o->batch, 1, 1},
        {"--stride-in", NULL, &o->stride_in, 1, 1},
        {"--stride-out", NULL, &o->stride_out, 1, 1},
        {"--csv", &o->csv, NULL, 0, 0},
        {"--device", NULL, &o->device, 0, 0},
        {"--jobs", NULL, &o->jobs, 1, 0},
        {"--strategy", &o->strategy, NULL, 0, 0},
        {"--budget", &o->budget, NULL, 0, 0},
        {"--record", &o->record, NULL, 0, 0},
        {"--compile-limit", &o->limit, NULL, 0, 0},
        {"--seeds", NULL, &o->seeds, 1, 0},
    };
    const struct {
        const char *flag;
        int *on;
    } switches[] = {
        {"--quiet", &o->quiet},         {"--json", &o->json},
        {"--retune", &o->retune},       {"--no-compile-cache", &o->no_cubins},
        {"--warm-l2", &o->warm_l2},
    };
    for (; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        size_t sw = 0, nsw = sizeof switches / sizeof switches[0];
        while (sw < nsw && strcmp(a, switches[sw].flag) != 0)
            ++sw;
        if (sw < nsw) {
            *switches[sw].on = 1;
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
        if (f < nf && flags[f].shape)
            o->shape_given = 1;
    }
    int tuning_flags = o->out || o->name || o->device || o->jobs ||
                       o->seed || o->quiet || o->budget || o->record ||
                       o->limit || o->retune || o->no_cubins ||
                       o->warm_l2;
    if (strcmp(o->cmd, "space") == 0 &&
        (tuning_flags || o->strategy || o->json || o->seeds != 100 ||
         o->csv))
        return bad_usage("%s", "space takes only --type, --arch and the "
                               "problem's shape");
    if (o->csv && strcmp(o->cmd, "bench") != 0)
        return bad_usage("%s", "--csv is for bench");
    if (strcmp(o->cmd, "bench") == 0 &&
        (o->out || o->name || o->record || o->json ||
         strcmp(o->arch, "auto") != 0))
        return bad_usage("%s", "bench takes no -o, --name, --record, --json "
                               "or --arch (it runs on this GPU)");
    if (strcmp(o->cmd, "replay") == 0) {
        if (tuning_flags || o->shape_given || strcmp(o->arch, "auto") ||
            o->csv)
            return bad_usage("%s", "replay takes only --json, --seeds and "
                                   "--strategy");
        if (o->strategy && !at_strategy_find(o->strategy))
            goto bad_strategy;
        return 0;
    }
    if (o->seeds != 100)
        return bad_usage("%s", "--seeds is for replay");
    if (o->strategy && !at_strategy_find(o->strategy))
        goto bad_strategy;
    if (o->json && o->out && strcmp(o->out, "-") == 0)
        return bad_usage("%s", "--json and -o - both want stdout");
    if (o->budget && parse_budget(o))
        return 2;
    if (o->limit) {
        char *end;
        errno = 0;
        o->limit_s = strtod(o->limit, &end);
        if (!*o->limit || *end || errno || !(o->limit_s > 0) ||
            o->limit_s > 3600)
            return bad_usage("--compile-limit needs seconds, more than 0 and "
                             "at most 3600, got '%s'", o->limit);
    }

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
bad_strategy:
    fprintf(stderr, "autotune: unknown strategy '%s' (known: %s)\n",
            o->strategy, at_strategy_list());
    return 2;
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
                          o->ld_out, o->batch, o->stride_in, o->stride_out};
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

static void json_key(const char *k, int first)
{
    printf("%s\n  ", first ? "{" : ",");
    at_json_str(stdout, k);
    printf(": ");
}

static void json_kv_str(const char *k, const char *v)
{
    json_key(k, 0);
    at_json_str(stdout, v);
}

static void json_kv_num(const char *k, double v)
{
    json_key(k, 0);
    at_json_num(stdout, v);
}

/* The run's summary as one JSON object on stdout. */
static void print_json(const opts *o, const at_problem *p,
                       const at_device *d, const autotune_kernel *k,
                       const at_tuned *t, double wall, int stored,
                       const char *out)
{
    char prob[256], params[256];
    at_problem_str(p, prob, sizeof prob);
    at_point_params(p->family, &k->pt, params, sizeof params);
    json_key("problem", 1);
    at_json_str(stdout, prob);
    json_kv_str("family", p->family->name);
    json_kv_str("type", p->type->name);
    json_kv_num("rows", (double)p->rows);
    json_kv_num("cols", (double)p->cols);
    json_kv_num("ld_in", (double)p->ld_in);
    json_kv_num("ld_out", (double)p->ld_out);
    json_kv_num("batch", (double)p->batch);
    json_kv_num("stride_in", (double)p->stride_in);
    json_kv_num("stride_out", (double)p->stride_out);
    json_kv_str("gpu", d->name);
    json_kv_num("sm", d->sm);
    json_kv_str("driver", d->driver_build);
    json_kv_str("nvrtc", d->nvrtc);
    json_key("from_cache", 0);
    printf("%s", k->fig.from_cache ? "true" : "false");
    json_kv_num("wall_s", wall);
    if (!k->fig.from_cache) {
        json_kv_str("strategy", t->strategy);
        json_key("seed", 0);
        printf("%llu", (unsigned long long)t->seed);
        json_kv_str("budget", o->budget ? o->budget : "none");
        json_kv_str("stopped", t->stopped);
        json_kv_num("space_size", (double)t->points);
        json_kv_num("evaluated", (double)t->evaluated);
        json_kv_num("compiled", (double)(t->compiled - t->cached));
        json_kv_num("from_compile_cache", (double)t->cached);
        json_kv_num("same_code", (double)t->same_code);
        json_kv_num("compile_failed", (double)t->compile_failed);
        json_kv_num("wrong", (double)t->wrong);
        json_kv_num("timed", (double)t->timed);
        json_kv_num("raced", (double)t->raced);
        json_kv_num("tune_s", t->seconds);
        json_kv_num("variants_per_s", t->evaluated / t->seconds);
        json_kv_num("setup_s", t->setup_s);
        json_kv_num("search_s", t->search_s);
        json_kv_num("leaders_s", t->retime_s);
        json_kv_num("nvrtc_cpu_s", t->nvrtc_cpu_s);
        json_kv_num("threads", t->threads);
        json_kv_num("gpu_s", t->gpu_s);
        json_key("stored", 0);
        printf("%s", stored ? "true" : "false");
        json_key("leaders", 0);
        printf("[");
        for (int i = 0; i < t->n_leaders; ++i) {
            printf("%s{\"point\": ", i ? ", " : "");
            at_json_str(stdout, t->leaders[i].name);
            printf(", \"ms\": ");
            at_json_num(stdout, t->leaders[i].ms);
            printf("}");
        }
        printf("]");
    }
    json_kv_str("point", k->name);
    json_kv_str("params", params);
    json_kv_num("median_ms", k->fig.median_ms);
    json_kv_num("gbps", k->fig.gbps);
    json_kv_num("copy_gbps", k->fig.copy_gbps);
    json_kv_num("frac_copy", k->fig.frac_copy);
    json_kv_str("output", out);
    if (o->record)
        json_kv_str("record", o->record);
    printf("\n}\n");
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
    else if (p.batch > 1)
        snprintf(out, sizeof out, "%s_%s_%lldx%lldx%lld.cu", p.family->name,
                 p.type->name, (long long)p.batch, (long long)p.rows,
                 (long long)p.cols);
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
    FILE *rec = NULL;
    char rec_tmp[1100];
    if (o->record) {
        snprintf(rec_tmp, sizeof rec_tmp, "%s.partial", o->record);
        rec = fopen(rec_tmp, "w");
        if (!rec) {
            fprintf(stderr, "autotune: --record: cannot write %s: %s\n",
                    rec_tmp, strerror(errno));
            autotune_destroy(ctx);
            return 1;
        }
    }
    at_tune_opts to = {
        .jobs = (int)o->jobs, .seed = o->seed,
        .progress = o->quiet ? NULL : stderr, .strategy = o->strategy,
        .budget_evals = o->budget_evals, .budget_s = o->budget_s,
        .compile_limit_s = o->limit_s,
        .warm_l2 = o->warm_l2, .no_cubin_cache = o->no_cubins,
        .retune = o->retune || o->record, .record = rec,
        .record_path = o->record ? rec_tmp : NULL};
    at_tuned t;
    autotune_kernel *k = NULL;
    rc = at_ctx_get(ctx, &u, &to, &k, &t);
    if (rec && fclose(rec) != 0 && !rc) {
        fprintf(stderr, "autotune: --record: writing %s: %s\n", rec_tmp,
                strerror(errno));
        rc = 1;
    }
    if (rec && !rc && rename(rec_tmp, o->record) != 0) {
        fprintf(stderr, "autotune: --record: rename %s to %s: %s\n", rec_tmp,
                o->record, strerror(errno));
        rc = 1;
    } else if (rec && rc) {
        fprintf(stderr, "autotune: --record: the evaluations so far are in "
                "%s\n", rec_tmp);
    }
    if (rc) {
        if (rc != 1)
            fprintf(stderr, "autotune: %s\n", autotune_last_error(ctx));
        at_tuned_free(&t);
        autotune_kernel_destroy(k);
        autotune_destroy(ctx);
        return 1;
    }
    char prob[256];
    /* The human summary goes to stdout unless stdout holds the .cu or the
     * JSON. */
    FILE *info = o->json ? stderr : info_stream(out);
    int stored = k->fig.from_cache || t.evaluated == t.points;
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
        fprintf(info, "  tuned in %.1f s (%.0f variants/s): strategy %s, %zu "
               "of %zu points evaluated (%s); %zu compiled, %zu from the "
               "compiled-variant cache, %zu same code as another, %zu "
               "failed to compile, %zu wrong, %zu timed (%zu raced); seed "
               "%llu\n  time: setup %.1f s, search %.1f s, leaders %.1f s; "
               "NVRTC %.0f CPU-s on %d threads, GPU (load, check, time) "
               "%.1f s\n%s",
               t.seconds, t.evaluated / t.seconds, t.strategy, t.evaluated,
               t.points, t.stopped, t.compiled - t.cached, t.cached,
               t.same_code, t.compile_failed, t.wrong, t.timed, t.raced,
               (unsigned long long)t.seed, t.setup_s, t.search_s, t.retime_s,
               t.nvrtc_cpu_s, t.threads, t.gpu_s,
               stored ? "" : "  not stored in the cache: only a search of "
                             "the whole space is\n");
    fprintf(info, "  best: %s\n  median %.4f ms, %.1f GB/s, %.1f%% of the "
           "device-to-device copy (%.1f GB/s); %d registers, %d B shared, "
           "%d B local\n",
           k->name, k->fig.median_ms, k->fig.gbps, 100 * k->fig.frac_copy,
           k->fig.copy_gbps, k->fig.registers, k->fig.shared_bytes,
           k->fig.local_bytes);
    for (int i = 1; i < t.n_leaders; ++i)
        fprintf(info, "  then: %.4f ms (+%.2f%%) %s\n", t.leaders[i].ms,
                100 * (t.leaders[i].ms / t.leaders[0].ms - 1),
                t.leaders[i].name);
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
    if (!rc && o->record)
        fprintf(info, "  recorded %zu evaluations in %s\n", t.evaluated,
                o->record);
    if (!rc && o->json)
        print_json(o, &p, d, k, &t, now_s() - t0, stored, out);
    at_tuned_free(&t);
    autotune_kernel_destroy(k);
    autotune_destroy(ctx);
    return rc ? 1 : 0;
}

static int cmd_replay(const opts *o)
{
    at_err e = {0};
    at_record r;
    if (at_record_load(o->file, &r, &e)) {
        fprintf(stderr, "autotune: %s\n", e.msg);
        return 1;
    }
    at_replay_result res[8];
    int n = 0, rc = 0;
    for (size_t i = 0; at_strategy_at(i) && n < 8 && !rc; ++i) {
        const at_strategy *s = at_strategy_at(i);
        if (o->strategy && strcmp(o->strategy, s->name) != 0)
            continue;
        rc = at_replay(s, &r, (int)o->seeds, &res[n++], &e);
    }
    if (rc) {
        fprintf(stderr, "autotune: replay of %s: %s\n", o->file, e.msg);
        at_record_free(&r);
        return 1;
    }
    FILE *info = o->json ? stderr : stdout;
    fprintf(info, "replay of %s: %s %s %lldx%lld on %s, %zu points, optimum "
            "%.4f ms (%s); mean over %lld seeds\n", o->file, r.family,
            r.type, r.rows, r.cols, r.gpu, r.view.n, r.ms[r.best],
            r.point[r.best], o->seeds);
    fprintf(info, "%-11s %14s %14s %9s %10s\n", "strategy", "evals_to_1pct",
            "evals_to_2pct", "(% space)", "space_size");
    for (int i = 0; i < n; ++i)
        fprintf(info, "%-11s %14.1f %14.1f %8.1f%% %10zu\n", res[i].strategy,
                res[i].evals_to_1pct, res[i].evals_to_2pct,
                100 * res[i].evals_to_2pct / (double)res[i].space_size,
                res[i].space_size);
    if (o->json) {
        printf("[");
        for (int i = 0; i < n; ++i) {
            printf("%s\n  {\"strategy\": ", i ? "," : "");
            at_json_str(stdout, res[i].strategy);
            printf(", \"evals_to_1pct\": ");
            at_json_num(stdout, res[i].evals_to_1pct);
            printf(", \"evals_to_2pct\": ");
            at_json_num(stdout, res[i].evals_to_2pct);
            printf(", \"worst_to_1pct\": %zu, \"worst_to_2pct\": %zu, "
                   "\"space_size\": %zu, \"seeds\": %d}",
                   res[i].worst_1pct, res[i].worst_2pct, res[i].space_size,
                   res[i].seeds);
        }
        printf("\n]\n");
    }
    at_record_free(&r);
    return 0;
}

/* The problems are checked by at_cmd_bench (bad ones: exit 2). */
static int cmd_bench(const opts *o)
{
    char csv[256];
    snprintf(csv, sizeof csv, "bench_%s.csv", o->family);
    at_bench_args a = {
        .family = o->family, .one = o->shape_given,
        .problem = flags_problem(o), .csv = o->csv ? o->csv : csv,
        .device = (int)o->device, .quiet = o->quiet,
        .tune = {.jobs = (int)o->jobs, .seed = o->seed,
                 .progress = o->quiet ? NULL : stderr,
                 .strategy = o->strategy, .budget_evals = o->budget_evals,
                 .budget_s = o->budget_s, .compile_limit_s = o->limit_s,
                 .warm_l2 = o->warm_l2, .no_cubin_cache = o->no_cubins,
                 .retune = o->retune}};
    return at_cmd_bench(&a);
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
    if (strcmp(o.cmd, "replay") == 0)
        return cmd_replay(&o);
    if (strcmp(o.cmd, "bench") == 0)
        return cmd_bench(&o);
    char cmdline[2048];
    command_line(argc, argv, cmdline, sizeof cmdline);
    return cmd_tune(&o, cmdline);
}
