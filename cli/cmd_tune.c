/* `autotune FAMILY --arch auto|sm_XX`: the planner's answer for the
 * problem (runtime/plan.h: cached, tuned here, or the default point when
 * no GPU of the architecture is here), emitted as a .cu, summarised on
 * stdout (or stderr when stdout holds the .cu or the JSON). */
#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "base/safefile.h"
#include "base/text.h"
#include "commands.h"
#include "errors.h"
#include "report.h"
#include "runtime/api_internal.h"
#include "runtime/gpu_worker.h"

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
    char path[1024];
    int rc = at_cache_default_path(path, sizeof path, &e);
    if (!rc)
        rc = at_ctx_create(&pl->ctx, (int)o->device, path,
                           o->quiet ? NULL : stderr, &e);
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
    int records = o->record && pl->ctx && !pl->no_device[0]; /* tunes */
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
    char stem[128];
    p->family->file_stem(p, stem, sizeof stem);
    if (o->out)
        snprintf(out, on, "%s", o->out);
    else
        snprintf(out, on, "%s_%s_%s.cu", p->family->name, p->type->name,
                 stem);
    if (o->name)
        snprintf(name, nn, "%s", o->name);
    else
        snprintf(name, nn, "autotune_%s_%s", p->family->name, p->type->name);
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
    return 0;
}

int at_cmd_tune(const opts *o, int argc, char **argv)
{
    at_problem p;
    if (at_opts_problem(o, &p))
        return 2;
    int want_sm = 0;
    if (strcmp(o->arch, "auto") != 0 && !(want_sm = at_parse_arch(o->arch))) {
        at_cli_say("--arch must be auto or sm_XX (as sm_90), "
                        "got '%s'\n", o->arch);
        return 2;
    }
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
    char cmdline[2048];
    command_line(argc, argv, cmdline, sizeof cmdline);
    at_plan ans;
    memset(&ans, 0, sizeof ans); /* freed whatever happens */
    int rc = plan(o, &pl, &p, want_sm, &ans);
    if (!rc)
        rc = emit_and_say(o, &pl, &ans, want_sm, t0, cmdline);
    at_plan_free(&ans);
    close_place(&pl);
    return rc;
}
