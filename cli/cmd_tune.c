/* `autotune FAMILY --arch auto|sm_XX`: the planner's answer for the
 * problem (runtime/plan/plan.h: cached, tuned here, or the default point when
 * no GPU of the architecture is here), emitted as a .cu, summarised on
 * stdout (or stderr when stdout holds the .cu or the JSON). With
 * --sizes, --from-cache or several architectures (--arch sm_80,sm_90):
 * the answer for each problem and architecture, in one .cu that chooses
 * among their kernels at run time (gen/emit_multi.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/safefile.h"
#include "base/text.h"
#include "commands.h"
#include "errors.h"
#include "dump_data.h"
#include "report.h"
#include "gen/emit_multi.h"
#include "runtime/api/api.h"
#include "runtime/plan/plan.h"
#include "runtime/store/store.h"

static void command_line(int argc, char **argv, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < argc && used < n; ++i)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? " " : "",
                                 i ? argv[i] : "autotune");
}

/* Where the answer comes from: this GPU's context, or (no GPU of the
 * architecture asked for) the cache alone. */
typedef struct place {
    autotune_ctx *ctx;    /* NULL: no device */
    at_cache *cache;      /* the context's, or opened alone */
    char no_device[1100]; /* why not */
} place;

static int open_place(const opts *o, int want_sm, place *pl)
{
    at_err e = {0};
    char path[1024], memo[1024];
    int rc = at_cache_default_path(path, sizeof path, &e);
    /* The GPU's facts from the host's memo where it answers: a hit then
     * never starts the driver. */
    char name[300];
    at_device_memo_name(name, sizeof name);
    at_err me = {0};
    int memo_ok = !rc && !at_cache_local_path(memo, sizeof memo, name, &me);
    if (!rc)
        rc = at_ctx_create(&pl->ctx, (int)o->device, path,
                           memo_ok ? memo : NULL, o->quiet ? NULL : stderr,
                           &e);
    int none = rc == AUTOTUNE_ENO_DRIVER || rc == AUTOTUNE_ENO_DEVICE ||
               (rc == AUTOTUNE_ENO_NVRTC && want_sm);
    if (none && !want_sm) {
        at_cli_fail_hint(&e, " (--arch auto needs a CUDA GPU; --arch sm_XX "
                             "emits for an architecture without one)");
        return 1;
    }
    if (none) {
        snprintf(pl->no_device, sizeof pl->no_device, "%s", e.msg);
        rc = at_cache_open(&pl->cache, path, &e);
    } else if (!rc) {
        pl->cache = pl->ctx->cache;
        if (want_sm && pl->ctx->dev.sm != want_sm)
            snprintf(pl->no_device, sizeof pl->no_device,
                     "this GPU is %s, sm_%d", pl->ctx->dev.name,
                     pl->ctx->dev.sm);
    }
    if (rc) {
        at_cli_fail(&e);
        return 1;
    }
    return 0;
}

static void close_place(place *pl)
{
    if (!pl->ctx)
        at_cache_close(pl->cache);
    autotune_destroy(pl->ctx);
}

/* The answer for p, with --record's file written whole or kept as far as
 * it got. */
static int plan(const opts *o, const place *pl, const at_problem *p,
                int want_sm, at_plan *ans)
{
    at_err e = {0};
    at_tune_opts to;
    at_opts_tune(o, &to);
    at_safefile rec = {0};
    int here = pl->ctx && !pl->no_device[0] &&
               (!want_sm || pl->ctx->dev.sm == want_sm);
    if (o->record && !here) { /* nothing would be tuned: said, not faked */
        at_cli_say("--record: nothing is tuned here (%s), so there is "
                   "nothing to record\n", pl->no_device[0] ? pl->no_device
                   : "this GPU is another architecture");
        return 1;
    }
    int records = o->record != NULL;
    if (records && at_safefile_open(&rec, o->record, &e)) {
        at_cli_say("--record: %s\n", e.msg);
        return 1;
    }
    to.record = rec.f;
    to.record_path = o->record;
    at_plan_env env = {.cache = pl->cache, .sm = want_sm,
                       .no_device = pl->no_device,
                       .progress = o->quiet ? NULL : stderr,
                       .worker = at_worker_path()};
    if (pl->ctx) {
        env.dev = &pl->ctx->dev;
        env.cubins = pl->ctx->cubins;
    }
    int rc = at_plan_get(&env, p, &to, ans, &e);
    if (records && !rc && (rc = at_safefile_commit(&rec, &e)) != 0) {
        at_cli_say("--record: %s\n", e.msg);
        return 1;
    }
    if (records && rc) {
        at_safefile_keep(&rec);
        char hint[1200];
        snprintf(hint, sizeof hint, "\nautotune: --record: the evaluations "
                 "so far are in %s", rec.tmp);
        at_cli_fail_hint(&e, hint);
        return 1;
    }
    if (rc)
        at_cli_fail(&e);
    return rc ? 1 : 0;
}

/* The output path and the launcher's name: as given, or from the
 * problem. */
static void names(const opts *o, const at_problem *p, char *out, size_t on,
                  char *name, size_t nn)
{
    char stem[128], kind[96];
    p->family->ops.file_stem(p, stem, sizeof stem);
    at_problem_kind(p, kind, sizeof kind);
    if (o->out)
        snprintf(out, on, "%s", o->out);
    else
        snprintf(out, on, "%s_%s.cu", kind, stem);
    at_problem_name_kind(p, kind, sizeof kind);
    if (o->name)
        snprintf(name, nn, "%s", o->name);
    else
        snprintf(name, nn, "autotune_%s", kind);
}

/* Emits the answer and says what was done. */
static int emit_and_say(const opts *o, const place *pl, const at_plan *ans,
                        int want_sm, double t0, const char *cmdline)
{
    char out[1024], name[128];
    names(o, &ans->p, out, sizeof out, name, sizeof name);
    /* The summary goes to stdout unless stdout holds the .cu or the
     * JSON. */
    FILE *info = o->json || strcmp(out, "-") == 0 ? stderr : stdout;
    const at_device *d = pl->ctx && !pl->no_device[0] ? &pl->ctx->dev : NULL;
    if (d)
        at_report_plan(info, ans, d, at_now_s() - t0,
                       at_cache_path(pl->cache));
    at_provenance pv;
    at_plan_provenance(ans, cmdline, &pv);
    if (!d)
        pv.sm = want_sm;
    at_err e = {0};
    if (at_emit(out, &ans->p, &ans->pt, name, &pv, &e)) {
        at_cli_fail(&e);
        return 1;
    }
    if (!d)
        at_report_offline(info, ans, want_sm);
    char shown[AT_PATH_MAX];
    at_text_printable(out, shown, sizeof shown, 0);
    if (strcmp(out, "-") != 0)
        fprintf(info, "  wrote %s\n", shown);
    if (o->record && ans->how == AUTOTUNE_HOW_TUNED) {
        at_text_printable(o->record, shown, sizeof shown, 0);
        fprintf(info, "  recorded %zu evaluations in %s\n",
                ans->tuned.evaluated, shown);
    }
    if (o->json && at_report_json(o, ans, d, at_now_s() - t0, out)) {
        at_cli_say("writing the JSON summary to stdout failed\n");
        return 1;
    }
    return o->data ? at_dump_data(o->data, &ans->p, d, name, info) : 0;
}

/* The place for architecture sm (0: the device's) of all. */
static void arch_place(const place *all, int sm, place *pl)
{
    *pl = *all;
    if (all->ctx && (sm == 0 || sm == all->ctx->dev.sm))
        pl->no_device[0] = '\0';
    else if (all->ctx)
        snprintf(pl->no_device, sizeof pl->no_device, "this GPU is %s, "
                 "sm_%d", all->ctx->dev.name, all->ctx->dev.sm);
}

/* A growing list of problem texts, repeats out (--from-cache). */
typedef struct texts {
    char (*t)[512];
    int n, cap;
} texts;

static int by_text(const void *a, const void *b)
{
    return strcmp(a, b);
}

static int add_text(const at_entry *en, void *arg)
{
    texts *ts = arg;
    for (int i = 0; i < ts->n; ++i)
        if (strcmp(ts->t[i], en->key.problem) == 0)
            return 0;
    if (ts->n == ts->cap) {
        void *g = realloc(ts->t, (size_t)(ts->cap = 2 * ts->cap + 8) *
                                     sizeof *ts->t);
        if (!g)
            return AUTOTUNE_ENOMEM;
        ts->t = g;
    }
    snprintf(ts->t[ts->n++], sizeof *ts->t, "%s", en->key.problem);
    return 0;
}

/* The problems of the family and type the cache holds for sm on this GPU
 * (or, with none of sm here, for sm), with the choice fields as given;
 * 2 (said) if none, 1 if the cache fails. */
static int cached_problems(const opts *o, const place *pl, int sm,
                           at_problem **ps, int *n)
{
    at_problem base;
    at_err e = {0};
    if (at_opts_problem(o, &base))
        return 2;
    const at_device *d = pl->no_device[0] ? NULL : &pl->ctx->dev;
    at_limits l = d ? at_device_limits(d) : (at_limits){0};
    at_key like;
    texts ts = {0};
    int rc = !d && !at_limits_for_arch(sm, &l); /* known: asked before */
    rc = rc ? rc : at_key_fill(&like, d, &base, &l, &e);
    if (!rc) {
        like.problem[0] = like.space_hash[0] = '\0';
        rc = at_cache_each(pl->cache, &like, add_text, &ts,
                           o->quiet ? NULL : stderr, &e);
    }
    *ps = calloc((size_t)ts.n + 1, sizeof **ps);
    *n = 0;
    if (ts.n) /* an order that does not change as entries are added */
        qsort(ts.t, (size_t)ts.n, sizeof *ts.t, by_text);
    for (int i = 0; !rc && *ps && i < ts.n; ++i) {
        at_problem *p = &(*ps)[*n];
        at_err why = {0};
        int bad = at_problem_begin(p, o->family, o->type, &why) ||
                  at_problem_set_text(p, ts.t[i], &why) ||
                  at_problem_finish(p, &why);
        for (int k = 0; !bad && k < p->family->n_fields; ++k)
            bad = p->family->fields[k].choices && p->v[k] != base.v[k];
        *n += !bad;
    }
    free(ts.t);
    if (rc || !*ps) {
        if (!*ps)
            at_fail(&e, AUTOTUNE_ENOMEM, "listing the cache");
        at_cli_fail(&e);
        return 1;
    }
    if (*n == 0)
        at_cli_say("--from-cache: no tuned %s %s problems in %s for sm_%d"
                   "%s\n", o->family, o->type, at_cache_path(pl->cache),
                   d ? d->sm : sm, d ? " on this GPU" : "");
    return *n ? 0 : 2;
}

/* What was emitted, after the planner's own summaries. */
static void say_multi(FILE *info, const at_multi_entry *en, int n,
                      const char *out, const int *archs, int n_archs)
{
    int *kernel = calloc((size_t)n, sizeof *kernel);
    int kernels = kernel ? at_multi_kernels(en, n, kernel) : -1;
    for (int i = 0; kernels > 0 && i < n; ++i) {
        char prob[512], point[128];
        at_problem_str(&en[i].p, prob, sizeof prob);
        en[i].p.family->ops.point_name(en[i].p.family, &en[i].pt, point,
                                   sizeof point);
        fprintf(info, "  sm_%d %s: kernel %d, %s\n", en[i].sm, prob,
                kernel[i], point);
    }
    free(kernel);
    char shown[AT_PATH_MAX];
    at_text_printable(out, shown, sizeof shown, 0);
    fprintf(info, "  wrote %s: %d problem%s, %d kernel%s, for", shown, n,
            n == 1 ? "" : "s", kernels, kernels == 1 ? "" : "s");
    for (int a = 0; a < n_archs; ++a)
        fprintf(info, "%s sm_%d", a ? "," : "", archs[a]);
    fputc('\n', info);
}

/* Plans each problem for each architecture; the entries for the file
 * (pointing into plans). */
static int plan_all(const opts *o, const place *all, const int *archs,
                    int n_archs, const at_problem *sized, int n_sized,
                    at_plan **plans, at_multi_entry **en, int *n,
                    const char *cmdline)
{
    FILE *info = o->out && strcmp(o->out, "-") == 0 ? stderr : stdout;
    int rc = 0, cap = 0;
    for (int a = 0; !rc && a < n_archs; ++a) {
        place pl;
        arch_place(all, archs[a], &pl);
        at_problem *listed = NULL, one;
        const at_problem *ps = sized;
        int np = n_sized;
        if (o->from_cache && !(rc = cached_problems(o, &pl, archs[a],
                                                    &listed, &np)))
            ps = listed;
        else if (!o->from_cache && !sized && !(rc = at_opts_problem(o, &one)))
            ps = &one, np = 1;
        if (!rc && *n + np > cap) {
            cap = 2 * cap + np;
            at_plan *g = realloc(*plans, (size_t)cap * sizeof **plans);
            at_multi_entry *h = g ? realloc(*en, (size_t)cap * sizeof **en)
                                  : NULL;
            *plans = g ? g : *plans;
            *en = h ? h : *en;
            rc = g && h ? 0 : (at_cli_say("out of memory\n"), 1);
        }
        for (int i = 0; !rc && i < np; ++i) {
            double t0 = at_now_s();
            at_plan *ans = &(*plans)[*n];
            memset(ans, 0, sizeof *ans);
            if ((rc = plan(o, &pl, &ps[i], archs[a], ans)) != 0) {
                at_plan_free(ans);
                break;
            }
            (*en)[(*n)++].sm = archs[a];
            if (!pl.no_device[0])
                at_report_plan(info, ans, &pl.ctx->dev, at_now_s() - t0,
                               at_cache_path(pl.cache));
            else
                at_report_offline(info, ans, archs[a]);
        }
        free(listed);
    }
    for (int i = 0; !rc && i < *n; ++i) {
        (*en)[i].p = (*plans)[i].p;
        (*en)[i].pt = (*plans)[i].pt;
        at_plan_provenance(&(*plans)[i], cmdline, &(*en)[i].pv);
    }
    return rc;
}

/* --sizes, --from-cache, several architectures: one file. */
static int tune_multi(const opts *o, int *archs, int n_archs,
                      const char *cmdline)
{
    if (o->json || o->record)
        return at_bad_usage("%s", "--json and --record are for one "
                                  "problem: not with --sizes, --from-cache "
                                  "or several architectures");
    if (o->sizes && o->from_cache)
        return at_bad_usage("%s", "--sizes or --from-cache, not both");
    const at_family *fam = at_family_find(o->family);
    for (int i = 0; o->from_cache && i < fam->n_fields; ++i)
        if (o->field[i] && !fam->fields[i].choices)
            return at_bad_usage("%s", "--from-cache takes every tuned "
                                "problem of the family and type: only "
                                "--type and the family's choices with it");
    at_problem *sized = NULL;
    int n_sized = 0, n = 0, rc = o->sizes ? at_sized_problems(o, &sized,
                                                           &n_sized) : 0;
    if (!rc && o->devices && (!o->sizes || n_archs > 1 || archs[0]))
        rc = at_bad_usage("%s", "--devices tunes --sizes's problems on "
                          "this machine's GPUs: with --arch auto only");
    /* Tuned on every device first; the file then takes them as hits. */
    if (!rc && o->devices)
        rc = at_tune_on_devices(o, sized, n_sized, stderr);
    place pl = {0};
    if (!rc && open_place(o, archs[0], &pl))
        rc = 1;
    for (int a = 0; !rc && a < n_archs; ++a) {
        at_limits l;
        archs[a] = archs[a] ? archs[a] : pl.ctx->dev.sm;
        if ((!pl.ctx || pl.ctx->dev.sm != archs[a]) &&
            !at_limits_for_arch(archs[a], &l)) {
            at_cli_say("unknown architecture sm_%d (known: %s)\n",
                       archs[a], AT_KNOWN_ARCHS);
            rc = 2;
        }
    }
    at_plan *plans = NULL;
    at_multi_entry *en = NULL;
    if (!rc)
        rc = plan_all(o, &pl, archs, n_archs, sized, n_sized, &plans, &en,
                      &n, cmdline);
    char out[1024], name[128];
    snprintf(out, sizeof out, o->out ? "%s" : "%s_%s_multi.cu",
             o->out ? o->out : o->family, o->type);
    char kind[96] = "";
    if (!rc && n > 0) /* every problem of the file shares its choices */
        at_problem_name_kind(&en[0].p, kind, sizeof kind);
    snprintf(name, sizeof name, "%s%s", o->name ? "" : "autotune_",
             o->name ? o->name : kind);
    at_err e = {0};
    if (!rc && (rc = at_emit_multi(out, en, n, name, cmdline, &e)) != 0) {
        at_cli_fail(&e);
        rc = rc == AUTOTUNE_EINVALID ? 2 : 1;
    } else if (!rc) {
        say_multi(strcmp(out, "-") == 0 ? stderr : stdout, en, n, out,
                  archs, n_archs);
    }
    for (int i = 0; i < n; ++i)
        at_plan_free(&plans[i]);
    free(plans);
    free(en);
    free(sized);
    if (pl.cache)
        close_place(&pl);
    return rc;
}

int at_cmd_tune(const opts *o, int argc, char **argv)
{
    int archs[16], n_archs = at_parse_archs(o->arch, archs, 16);
    if (!n_archs) {
        at_cli_say("--arch must be auto, sm_XX (as sm_90) or a list of "
                   "them (sm_80,sm_90), got '%s'\n", o->arch);
        return 2;
    }
    char cmdline[2048];
    command_line(argc, argv, cmdline, sizeof cmdline);
    if (o->devices && !o->sizes)
        return at_bad_usage("%s", "--devices needs a list of problems: "
                            "--sizes, or autotune tune-list FILE");
    if (o->sizes || o->from_cache || n_archs > 1)
        return tune_multi(o, archs, n_archs, cmdline);
    at_problem p;
    if (at_opts_problem(o, &p))
        return 2;
    int want_sm = archs[0];
    double t0 = at_now_s();
    place pl = {0};
    if (open_place(o, want_sm, &pl))
        return 1;
    at_limits l;
    if (pl.no_device[0] && !at_limits_for_arch(want_sm, &l)) {
        at_cli_say("unknown architecture sm_%d (known: %s)\n",
                want_sm, AT_KNOWN_ARCHS);
        close_place(&pl);
        return 2;
    }
    at_plan ans;
    memset(&ans, 0, sizeof ans); /* freed whatever happens */
    int rc = plan(o, &pl, &p, want_sm, &ans);
    if (!rc)
        rc = emit_and_say(o, &pl, &ans, want_sm, t0, cmdline);
    at_plan_free(&ans);
    close_place(&pl);
    return rc;
}
