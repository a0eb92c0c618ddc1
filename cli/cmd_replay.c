/* `autotune replay FILE.csv`: every strategy (or one) run against a
 * recorded space without a GPU. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "errors.h"
#include "json.h"
#include "base/safefile.h"
#include "search/replay.h"

/* --csv: each strategy's seeds evaluation by evaluation, as the replay
 * runs them, for `autotune plot --convergence`:
 * strategy,seed,evaluation,point,median_ms (empty: failed). */
typedef struct trace {
    const at_record *r;
    at_safefile sf;
} trace;

static int trace_seed(void *ctx, const at_strategy *s, int seed,
                      const size_t *order, size_t evals, at_err *e)
{
    trace *t = ctx;
    for (size_t j = 0; j < evals; ++j) {
        double ms = t->r->ms[order[j]];
        int n = ms > 0 ? fprintf(t->sf.f, "%s,%d,%zu,%s,%.17g\n", s->name,
                                 seed, j + 1, t->r->point[order[j]], ms)
                       : fprintf(t->sf.f, "%s,%d,%zu,%s,\n", s->name, seed,
                                 j + 1, t->r->point[order[j]]);
        if (n < 0)
            return at_fail(e, AUTOTUNE_EIO, "writing replay trace %s",
                           t->sf.path);
    }
    return 0;
}

/* autotune.replay/1: the record, then an object per strategy. */
static int json_summary(const opts *o, const at_record *r,
                        const at_replay_result *res, int n)
{
    json_t *top = at_json_object("autotune.replay/1");
    at_json_str(top, "record", o->file);
    at_json_str(top, "gpu", r->gpu);
    at_json_str(top, "family", r->family);
    at_json_str(top, "type", r->type);
    at_json_str(top, "problem", r->problem);
    at_json_int(top, "space_size", (int64_t)r->view.n);
    at_json_str(top, "optimum_point", r->point[r->best]);
    at_json_real(top, "optimum_ms", r->ms[r->best]);
    at_json_int(top, "seeds", o->seeds);
    json_t *list = json_array();
    for (int i = 0; i < n; ++i) {
        json_t *s = at_json_object(NULL);
        at_json_str(s, "strategy", res[i].strategy);
        at_json_real(s, "evals_to_1pct", res[i].evals_to_1pct);
        at_json_real(s, "evals_to_2pct", res[i].evals_to_2pct);
        at_json_int(s, "worst_to_1pct", (int64_t)res[i].worst_1pct);
        at_json_int(s, "worst_to_2pct", (int64_t)res[i].worst_2pct);
        at_json_int(s, "space_size", (int64_t)res[i].space_size);
        at_json_int(s, "seeds", res[i].seeds);
        json_array_append_new(list, s);
    }
    at_json_put(top, "strategies", list);
    return at_json_print(top);
}

int at_cmd_replay(const opts *o, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    at_err e = {0};
    at_record r;
    if (at_record_load(o->file, &r, &e)) {
        at_cli_fail(&e);
        return 1;
    }
    at_replay_result res[8];
    int n = 0, rc = 0;
    trace t = {.r = &r};
    if (o->csv && (rc = at_safefile_open(&t.sf, o->csv, &e)) == 0 &&
        fprintf(t.sf.f, "strategy,seed,evaluation,point,median_ms\n") < 0)
        rc = at_fail(&e, AUTOTUNE_EIO, "writing replay trace %s", o->csv);
    for (size_t i = 0; at_strategy_at(i) && n < 8 && !rc; ++i) {
        const at_strategy *s = at_strategy_at(i);
        if (o->strategy && strcmp(o->strategy, s->name) != 0)
            continue;
        rc = at_replay(s, &r, (int)o->seeds, o->csv ? trace_seed : NULL, &t,
                       &res[n++], &e);
    }
    if (o->csv && t.sf.f) {
        if (rc)
            at_safefile_discard(&t.sf);
        else
            rc = at_safefile_commit(&t.sf, &e);
    }
    if (rc) {
        at_err_prefix(&e, "replay of %s: ", o->file);
        at_cli_fail(&e);
        at_record_free(&r);
        return 1;
    }
    FILE *info = o->json ? stderr : stdout;
    fprintf(info, "replay of %s: %s %s %s on %s, %zu points, optimum "
            "%.4f ms (%s); mean over %lld seeds\n", o->file, r.family,
            r.type, r.problem, r.gpu, r.view.n, r.ms[r.best],
            r.point[r.best], o->seeds);
    fprintf(info, "%-11s %14s %14s %9s %10s\n", "strategy", "evals_to_1pct",
            "evals_to_2pct", "(% space)", "space_size");
    for (int i = 0; i < n; ++i)
        fprintf(info, "%-11s %14.1f %14.1f %8.1f%% %10zu\n", res[i].strategy,
                res[i].evals_to_1pct, res[i].evals_to_2pct,
                100 * res[i].evals_to_2pct / (double)res[i].space_size,
                res[i].space_size);
    if (o->json && json_summary(o, &r, res, n)) {
        at_record_free(&r);
        at_cli_say("writing the JSON summary to stdout failed\n");
        return 1;
    }
    at_record_free(&r);
    return 0;
}
