#include "report.h"

#include <string.h>

#include "json.h"

void at_report_plan(FILE *f, const at_plan *pl, const at_device *d,
                    double wall_s, const char *cache_path)
{
    char prob[256];
    at_problem_str(&pl->p, prob, sizeof prob);
    fprintf(f, "autotune: %s on %s (sm_%d, %d SMs, driver %s, CUDA %d.%d, "
            "NVRTC %s)\n", prob, d->name, d->sm, d->sms, d->driver_build,
            d->driver_version / 1000, d->driver_version % 1000 / 10,
            d->nvrtc);
    const at_tuned *t = &pl->tuned;
    const autotune_figures *k = &pl->fig;
    if (pl->how == AUTOTUNE_HOW_CACHED)
        fprintf(f, "  from the cache %s (tuned %s): no compile, no timing, "
                "%.2f s\n", cache_path, pl->created, wall_s);
    else
        fprintf(f, "  tuned in %.1f s (%.0f variants/s): strategy %s, %zu "
                "of %zu points evaluated (%s); %zu compiled, %zu from the "
                "compiled-variant cache, %zu same code as another, %zu "
                "failed to compile, %zu wrong, %zu timed (%zu raced); seed "
                "%llu\n  time: setup %.1f s, search %.1f s, leaders %.1f s; "
                "NVRTC %.0f CPU-s in %d worker processes, GPU (load, check, "
                "time) %.1f s\n%s",
                t->seconds, t->evaluated / t->seconds, t->strategy,
                t->evaluated, t->points, t->stopped, t->compiled - t->cached,
                t->cached, t->same_code, t->compile_failed, t->wrong,
                t->timed, t->raced, (unsigned long long)t->seed, t->setup_s,
                t->search_s, t->retime_s, t->nvrtc_cpu_s, t->workers,
                t->gpu_s,
                pl->stored ? "" : "  not stored in the cache: only a search "
                                  "of the whole space is\n");
    fprintf(f, "  best: %s\n  median %.4f ms, %.1f GB/s, %.1f%% of the "
            "device-to-device copy (%.1f GB/s); %d registers, %d B shared, "
            "%d B local\n", pl->name, k->median_ms, k->gbps,
            100 * k->frac_copy, k->copy_gbps, k->registers, k->shared_bytes,
            k->local_bytes);
    for (int i = 1; i < t->n_leaders; ++i)
        fprintf(f, "  then: %.4f ms (+%.2f%%) %s\n", t->leaders[i].ms,
                100 * (t->leaders[i].ms / t->leaders[0].ms - 1),
                t->leaders[i].name);
}

void at_report_offline(FILE *f, const at_plan *pl, int sm)
{
    if (pl->how == AUTOTUNE_HOW_CACHED)
        fprintf(f, "autotune: sm_%d: from the cache (tuned %s on %s): %s, "
                "%.1f GB/s, %.1f%% of copy\n", sm, pl->created, pl->gpu,
                pl->name, pl->fig.gbps, 100 * pl->fig.frac_copy);
    else
        fprintf(f, "autotune: sm_%d: NOT TUNED (%s; %s): default point %s\n",
                sm, pl->why, "no cache entry for this architecture and "
                "problem", pl->name);
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

/* The tune's own figures (only when this run tuned). */
static void json_tuned(const opts *o, const at_tuned *t, int stored)
{
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
    json_kv_num("compile_workers", t->workers);
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

/* The problem: its text, family, type and every field of the family's
 * table under the field's name. */
static void json_problem(const at_problem *p)
{
    char prob[256];
    at_problem_str(p, prob, sizeof prob);
    json_key("problem", 1);
    at_json_str(stdout, prob);
    json_kv_str("family", p->family->name);
    json_kv_str("type", p->type->name);
    for (int i = 0; i < p->family->n_fields; ++i) {
        const at_field *f = &p->family->fields[i];
        if (f->choices)
            json_kv_str(f->name, f->choices[p->v[i]]);
        else
            json_kv_num(f->name, (double)p->v[i]);
    }
}

void at_report_json(const opts *o, const at_plan *pl, const at_device *d,
                    double wall_s, const char *out)
{
    static const char *const how[] = {"tuned", "cached", "default"};
    char params[256];
    at_point_params(pl->p.family, &pl->pt, params, sizeof params);
    json_problem(&pl->p);
    json_kv_str("gpu", d ? d->name : pl->gpu);
    json_kv_num("sm", d ? d->sm : pl->sm);
    json_kv_str("driver", d ? d->driver_build : pl->driver_build);
    json_kv_str("nvrtc", d ? d->nvrtc : pl->nvrtc);
    json_key("from_cache", 0);
    printf("%s", pl->how == AUTOTUNE_HOW_CACHED ? "true" : "false");
    json_kv_str("how", how[pl->how]);
    json_kv_num("wall_s", wall_s);
    if (pl->how == AUTOTUNE_HOW_TUNED)
        json_tuned(o, &pl->tuned, pl->stored);
    json_kv_str("point", pl->name);
    json_kv_str("params", params);
    json_kv_num("median_ms", pl->fig.median_ms);
    json_kv_num("gbps", pl->fig.gbps);
    json_kv_num("copy_gbps", pl->fig.copy_gbps);
    json_kv_num("frac_copy", pl->fig.frac_copy);
    json_kv_str("output", out);
    if (o->record && pl->how == AUTOTUNE_HOW_TUNED)
        json_kv_str("record", o->record);
    printf("\n}\n");
}
