/* `autotune replay FILE.csv`: every strategy (or one) run against a
 * recorded space without a GPU. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "json.h"
#include "search/replay.h"

int at_cmd_replay(const opts *o, int argc, char **argv)
{
    (void)argc;
    (void)argv;
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
