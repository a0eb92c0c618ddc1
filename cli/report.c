#include "report.h"

#include <math.h>
#include <string.h>

#include "json.h"

/* Which variants failed and why: the counts of what the summary line
 * leaves out, the first few messages, and the outputs' own rules. */
static void report_failures(FILE *f, const at_tuned *t)
{
    if (t->launch_failed || t->faulted_before || t->resumed)
        fprintf(f, "  also: %zu could not launch (too many threads for "
                "their registers, or too much shared memory), %zu faulted "
                "or hung (each ending a GPU worker; the next resumed), %zu "
                "taken from earlier workers\n", t->launch_failed,
                t->faulted_before, t->resumed);
    size_t failed = t->compile_failed + t->wrong + t->launch_failed +
                    t->faulted_before;
    for (int i = 0; i < t->n_failures; ++i)
        fprintf(f, "  failed%s %s\n", i == 0 ? ":" : " ", t->failures[i]);
    if (failed > (size_t)t->n_failures)
        fprintf(f, "  ... and %zu more failed (--record lists each)\n",
                failed - (size_t)t->n_failures);
    if (t->check_note[0])
        fprintf(f, "  checked: %s\n", t->check_note);
}

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
    if (pl->how == AUTOTUNE_HOW_REUSED || pl->how == AUTOTUNE_HOW_DEFAULT) {
        /* --effort estimate: one point, checked here, not timed. */
        if (pl->how == AUTOTUNE_HOW_REUSED)
            fprintf(f, "  estimate: the best point of the nearest tuned "
                    "problem (%s, tuned %s), %s here; not timed, not "
                    "stored, %.2f s\n  point: %s\n", pl->from, pl->created,
                    pl->verified ? "verified" : "NOT verified", wall_s,
                    pl->name);
        else
            fprintf(f, "  estimate: the default point (%s), %s here; not "
                    "timed, not stored, %.2f s\n  point: %s\n", pl->why,
                    pl->verified ? "verified" : "NOT verified", wall_s,
                    pl->name);
        return;
    }
    if (pl->how == AUTOTUNE_HOW_CACHED)
        fprintf(f, "  from the cache %s (tuned %s): no compile, no timing, "
                "%.2f s%s\n", cache_path, pl->created, wall_s,
                d->lazy ? "; the GPU as this host's memo of its GPUs has "
                          "it, the driver not started"
                        : "");
    else
        fprintf(f, "  tuned in %.1f s (%.0f variants/s): strategy %s, %zu "
                "of %zu points evaluated (%s); %zu compiled (%zu kernels: "
                "points of one code share one), %zu from the "
                "compiled-variant cache, %zu same code as another (%zu "
                "known before compiling), %zu "
                "failed to compile, %zu wrong, %zu timed (%zu raced, %zu on "
                "their check), %zu "
                "checked on the problem itself; seed %llu\n  time: setup "
                "%.1f s, search %.1f s, leaders %.1f s; NVRTC %.0f CPU-s in "
                "%d worker processes, GPU %.1f s (checks %.1f s, timing "
                "%.1f s)\n%s",
                t->seconds, t->evaluated / t->seconds, t->strategy,
                t->evaluated, t->points, t->stopped, t->compiled - t->cached,
                t->kernels, t->cached, t->same_code, t->same_source,
                t->compile_failed, t->wrong,
                t->timed, t->raced, t->raced_on_check, t->verified,
                (unsigned long long)t->seed,
                t->setup_s, t->search_s, t->retime_s, t->nvrtc_cpu_s,
                t->workers, t->gpu_s, t->check_s, t->time_s,
                pl->stored ? "" : "  not stored in the cache: only a search "
                                  "of the whole space or --effort measure "
                                  "is\n");
    if (pl->how == AUTOTUNE_HOW_TUNED)
        report_failures(f, t);
    fprintf(f, "  best: %s\n  median %.4f ms, %.1f GB/s, %.1f%% of the "
            "device-to-device copy (%.1f GB/s); %d registers, %d B shared, "
            "%d B local\n", pl->name, k->median_ms, k->gbps,
            100 * k->frac_copy, k->copy_gbps, k->registers, k->shared_bytes,
            k->local_bytes);
    const at_family *fam = pl->p.family;
    if (fam->ops.flops(&pl->p) > 0 && k->median_ms > 0)
        fprintf(f, "  %.1f GFLOP/s\n",
                fam->ops.flops(&pl->p) / k->median_ms / 1e6);
    if (!at_family_verifies(fam))
        fprintf(f, "  NOT VERIFIED: the spec says verify: none; no variant "
                "was compared with a reference\n");
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
    if (!at_family_verifies(pl->p.family))
        fprintf(f, "autotune: NOT VERIFIED: the spec says verify: none\n");
}

/* The tune's own figures (only when this run tuned). */
static void json_tuned(json_t *o, const opts *op, const at_tuned *t,
                       int stored)
{
    at_json_str(o, "strategy", t->strategy);
    at_json_str(o, "budget", op->budget ? op->budget : "none");
    at_json_str(o, "stopped", t->stopped);
    at_json_int(o, "space_size", (int64_t)t->points);
    at_json_int(o, "evaluated", (int64_t)t->evaluated);
    at_json_int(o, "compiled", (int64_t)(t->compiled - t->cached));
    at_json_int(o, "from_compile_cache", (int64_t)t->cached);
    at_json_int(o, "same_code", (int64_t)t->same_code);
    at_json_int(o, "same_source", (int64_t)t->same_source);
    at_json_int(o, "kernels", (int64_t)t->kernels);
    at_json_int(o, "compile_failed", (int64_t)t->compile_failed);
    at_json_int(o, "wrong", (int64_t)t->wrong);
    at_json_int(o, "launch_failed", (int64_t)t->launch_failed);
    at_json_int(o, "faulted", (int64_t)t->faulted_before);
    at_json_int(o, "resumed", (int64_t)t->resumed);
    json_t *why = json_array();
    for (int i = 0; i < t->n_failures; ++i)
        json_array_append_new(why, json_string(t->failures[i]));
    at_json_put(o, "failures", why);
    if (t->check_note[0])
        at_json_str(o, "check_note", t->check_note);
    at_json_int(o, "timed", (int64_t)t->timed);
    at_json_int(o, "raced", (int64_t)t->raced);
    at_json_int(o, "raced_on_check", (int64_t)t->raced_on_check);
    at_json_int(o, "verified", (int64_t)t->verified);
    at_json_real(o, "tune_s", t->seconds);
    at_json_real(o, "variants_per_s", t->evaluated / t->seconds);
    at_json_real(o, "setup_s", t->setup_s);
    at_json_real(o, "search_s", t->search_s);
    at_json_real(o, "leaders_s", t->retime_s);
    at_json_real(o, "nvrtc_cpu_s", t->nvrtc_cpu_s);
    at_json_int(o, "compile_workers", t->workers);
    at_json_real(o, "gpu_s", t->gpu_s);
    at_json_real(o, "check_s", t->check_s);
    at_json_real(o, "time_s", t->time_s);
    at_json_bool(o, "stored", stored);
    json_t *leaders = json_array();
    for (int i = 0; i < t->n_leaders; ++i) {
        json_t *l = at_json_object(NULL);
        at_json_str(l, "point", t->leaders[i].name);
        at_json_real(l, "ms", t->leaders[i].ms);
        json_array_append_new(leaders, l);
    }
    at_json_put(o, "leaders", leaders);
}

int at_report_json(const opts *op, const at_plan *pl, const at_device *d,
                   double wall_s, const char *out)
{
    static const char *const how[] = {"tuned", "cached", "default",
                                      "reused"};
    char params[256];
    at_point_params(pl->p.family, &pl->pt, params, sizeof params);
    json_t *o = at_json_problem(at_json_object("autotune.tune/1"), &pl->p);
    at_json_str(o, "gpu", d ? d->name : pl->gpu[0] ? pl->gpu : NULL);
    at_json_int(o, "sm", d ? d->sm : pl->sm);
    at_json_str(o, "driver", d ? d->driver_build
                               : pl->driver_build[0] ? pl->driver_build
                                                     : NULL);
    at_json_str(o, "nvrtc", d ? d->nvrtc : pl->nvrtc[0] ? pl->nvrtc : NULL);
    at_json_str(o, "how", how[pl->how]);
    at_json_bool(o, "from_cache", pl->how == AUTOTUNE_HOW_CACHED);
    at_json_bool(o, "tuned", pl->how == AUTOTUNE_HOW_TUNED ||
                                 pl->how == AUTOTUNE_HOW_CACHED);
    if (pl->how == AUTOTUNE_HOW_DEFAULT ||
        (pl->how == AUTOTUNE_HOW_REUSED && pl->why[0]))
        at_json_str(o, "reason", pl->why);
    if (pl->how == AUTOTUNE_HOW_REUSED)
        at_json_str(o, "reused_from", pl->from);
    if (pl->how == AUTOTUNE_HOW_REUSED || pl->how == AUTOTUNE_HOW_DEFAULT)
        at_json_bool(o, "point_verified", pl->verified);
    if (pl->fig.effort)
        at_json_int(o, "effort", pl->fig.effort);
    at_json_real(o, "wall_s", wall_s);
    if (pl->how == AUTOTUNE_HOW_TUNED || pl->how == AUTOTUNE_HOW_CACHED)
        at_json_int(o, "seed", (int64_t)pl->seed);
    if (pl->how == AUTOTUNE_HOW_TUNED)
        json_tuned(o, op, &pl->tuned, pl->stored);
    at_json_str(o, "point", pl->name);
    at_json_str(o, "params", params);
    /* A default or reused point was not measured here: null figures. */
    int measured = pl->how == AUTOTUNE_HOW_TUNED ||
                   pl->how == AUTOTUNE_HOW_CACHED;
    at_json_real(o, "median_ms", measured ? pl->fig.median_ms : NAN);
    at_json_real(o, "gbps", measured ? pl->fig.gbps : NAN);
    at_json_real(o, "copy_gbps", measured ? pl->fig.copy_gbps : NAN);
    at_json_real(o, "frac_copy", measured ? pl->fig.frac_copy : NAN);
    at_json_str(o, "output", out);
    if (op->record && pl->how == AUTOTUNE_HOW_TUNED)
        at_json_str(o, "record", op->record);
    return at_json_print(o);
}
