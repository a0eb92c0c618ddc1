/* `autotune replay FILE.csv`: every strategy (or one) run against a
 * recorded space without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "errors.h"
#include "json.h"
#include "base/safefile.h"
#include "search/replay.h"

/* --csv: each strategy's seeds evaluation by evaluation (the order of
 * at_replay's own runs, seeds 1 to N), for `autotune plot --convergence`:
 * strategy,seed,evaluation,point,median_ms (empty: failed). */
static int write_trace(const opts *o, const at_record *r, at_err *e)
{
    at_safefile sf;
    size_t *order = malloc(r->view.n * sizeof *order);
    if (!order)
        return at_fail(e, AUTOTUNE_ENOMEM, "replay trace %s", o->csv);
    if (at_safefile_open(&sf, o->csv, e)) {
        free(order);
        return -1;
    }
    int rc = fprintf(sf.f, "strategy,seed,evaluation,point,median_ms\n") < 0;
    for (size_t i = 0; at_strategy_at(i) && !rc; ++i) {
        const at_strategy *s = at_strategy_at(i);
        if (o->strategy && strcmp(o->strategy, s->name) != 0)
            continue;
        for (long long k = 1; k <= o->seeds && !rc; ++k) {
            size_t a, b;
            if (at_replay_one(s, r, (uint64_t)k, &a, &b, order, r->view.n,
                              e)) {
                at_safefile_discard(&sf);
                free(order);
                return -1;
            }
            size_t evals = a > b ? a : b;
            for (size_t j = 0; j < evals && !rc; ++j) {
                double ms = r->ms[order[j]];
                rc = (ms > 0 ? fprintf(sf.f, "%s,%lld,%zu,%s,%.17g\n", s->name,
                                       k, j + 1, r->point[order[j]], ms)
                             : fprintf(sf.f, "%s,%lld,%zu,%s,\n", s->name, k,
                                       j + 1, r->point[order[j]])) < 0;
            }
        }
    }
    free(order);
    if (rc) {
        at_safefile_discard(&sf);
        return at_fail(e, AUTOTUNE_EIO, "writing replay trace %s", o->csv);
    }
    return at_safefile_commit(&sf, e);
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
    for (size_t i = 0; at_strategy_at(i) && n < 8 && !rc; ++i) {
        const at_strategy *s = at_strategy_at(i);
        if (o->strategy && strcmp(o->strategy, s->name) != 0)
            continue;
        rc = at_replay(s, &r, (int)o->seeds, &res[n++], &e);
    }
    if (!rc && o->csv)
        rc = write_trace(o, &r, &e);
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
