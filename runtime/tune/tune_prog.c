/* Points grouped into NVRTC programs: a program of r->cc.prog_points points
 * (at most PROG_POINTS) is compiled by the pool, or its points are found
 * in the compiled-variant cache. */
#include <stdlib.h>
#include <string.h>

#include "gen/expand.h"
#include "runtime/tune/tune_impl.h"

void at_prog_free(prog *g, int unload)
{
    if (!g)
        return;
    if (g->mod && unload)
        at_cu.cuModuleUnload(g->mod);
    at_job_release(&g->cj);
    for (int i = 0; i < g->n; ++i) {
        free(g->src[i]);
        at_prog_free(g->single[i], unload);
    }
    free(g);
}

static prog *prog_new(run *r, at_err *e)
{
    prog *g = calloc(1, sizeof *g);
    if (!g) {
        at_fail(e, AUTOTUNE_ENOMEM, "program of variants");
        return NULL;
    }
    g->cj.done = 1; /* until submitted: nothing to wait for */
    g->cj.opts = r->cc.co;
    return g;
}

/* A point's code: its source past the opening comment that names the
 * point (gen/expand.c). */
static const char *code_of(const char *src)
{
    const char *nl = strncmp(src, "/*", 2) == 0 ? strchr(src, '\n') : NULL;
    return nl ? nl + 1 : src;
}

/* Adds point i (its own source src, taken) to g: in a program still to
 * compile, code already there takes that point's kernel (an alias)
 * rather than a second copy of it. */
static void prog_add(const run *r, prog *g, size_t i, char *src)
{
    int n = g->n, same = -1;
    for (int k = 0; k < n && !g->cached && same < 0; ++k)
        if (!g->alias[k] && strcmp(code_of(g->src[k]), code_of(src)) == 0)
            same = k;
    g->idx[n] = i;
    g->src[n] = src;
    g->alias[n] = same >= 0;
    if (same >= 0)
        memcpy(g->kernel[n], g->kernel[same], AT_KERNEL_NAME);
    else
        at_family_kernel_symbol(r->p->family, g->kernels++, g->kernel[n],
                                AT_KERNEL_NAME);
    g->n++;
    g->left++;
}

/* Builds g's program and hands it to the pool. */
int at_prog_submit(run *r, prog *g, at_err *e)
{
    const at_point *pts[PROG_POINTS] = {0};
    const char *hooks[PROG_POINTS] = {0};
    int m = 0; /* the program's kernels, aliases left out (never the
                * first point) */
    for (int k = 0; k < g->n; ++k)
        if (!g->alias[k]) {
            pts[m] = &r->pts[g->idx[k]];
            hooks[m] = at_tune_prelude(r, pts[m]);
            ++m;
        }
    g->cj.src = at_expand_program(r->p, pts, hooks, m, e);
    if (!g->cj.src)
        return AUTOTUNE_ENOMEM;
    const at_family *f = r->p->family;
    f->ops.point_name(f, &r->pts[g->idx[0]], g->cj.variant,
                      sizeof g->cj.variant);
    if (m > 1) {
        size_t len = strlen(g->cj.variant);
        snprintf(g->cj.variant + len, sizeof g->cj.variant - len,
                 " and %d more in one program", m - 1);
    }
    /* The per-variant limit holds for the program too: a program that
     * passes it is split, and each point compiled alone within it. */
    g->cj.opts.limit_s = r->cc.co.limit_s;
    at_pool_submit(r->cc.pool, &g->cj);
    return 0;
}

/* Puts point i in flight: into the program of the cache hit it joins, or
 * the open program of misses (submitted when full). */
int at_prog_start_point(run *r, slot *s, size_t i, at_err *e)
{
    const at_family *f = r->p->family;
    char *src = at_expand(r->p, &r->pts[i], AT_KERNEL_SYMBOL,
                          at_tune_prelude(r, &r->pts[i]), e);
    if (!src)
        return AUTOTUNE_ENOMEM;
    at_twin_of(r, i, src, &s->twin, &s->copy);
    if (s->copy) { /* an earlier point's twin: takes its outcome */
        free(src);
        return 0;
    }
    int64_t blob = 0;
    char kernel[AT_KERNEL_NAME];
    int hit = 0, rc;
    if (r->o->cubins) {
        at_err w = {0};
        hit = at_cubins_find(r->o->cubins, &r->cc.ckey, src, &blob, kernel, &w);
        if (hit < 0) {
            free(src);
            return at_fail(e, hit, "%s", w.msg);
        }
    }
    if (hit && !(r->cc.last && r->cc.last->cached && r->cc.last->blob == blob &&
                 r->cc.last->n < PROG_POINTS)) {
        /* A cubin not read yet: a program of its own. */
        prog *g = prog_new(r, e);
        if (!g) {
            free(src);
            return AUTOTUNE_ENOMEM;
        }
        at_err w = {0};
        hit = at_cubins_blob(r->o->cubins, blob, &g->cj.cubin, &g->cj.size,
                             &w);
        if (hit < 0) {
            free(src);
            free(g);
            return at_fail(e, hit, "%s", w.msg);
        }
        if (w.msg[0])
            at_tune_say(r, "%s\n", w.msg);
        if (hit) {
            g->cached = g->handled = 1;
            g->blob = blob;
            f->ops.point_name(f, &r->pts[i], g->cj.variant, sizeof g->cj.variant);
            r->cc.last = g;
        } else {
            free(g);
        }
    }
    prog *g;
    if (hit) {
        g = r->cc.last;
        prog_add(r, g, i, src);
        snprintf(g->kernel[g->n - 1], AT_KERNEL_NAME, "%s", kernel);
    } else {
        if (!r->cc.open && !(r->cc.open = prog_new(r, e))) {
            free(src);
            return AUTOTUNE_ENOMEM;
        }
        g = r->cc.open;
        prog_add(r, g, i, src);
        r->cc.last = g;
    }
    /* In flight from here on, whatever follows. */
    s->g = g;
    s->i = g->n - 1;
    if (g == r->cc.open &&
        (g->kernels >= r->cc.prog_points || g->n >= PROG_POINTS)) {
        r->cc.open = NULL;
        if ((rc = at_prog_submit(r, g, e)))
            return rc;
    }
    return 0;
}

/* Once g's compilation is over: a failed program of several points is
 * split into a program per point, so each failure is its own; a compiled
 * one is stored in the cache. */
int at_prog_done(run *r, prog *g, at_err *e)
{
    if (g->handled)
        return 0;
    g->handled = 1;
    at_tuned *o = r->out;
    o->nvrtc_cpu_s += g->cj.ms / 1e3;
    if (g->cj.rc && g->n > 1) {
        /* (An alias too: its code is compiled again, once a point, on
         * this rare path; each evaluation stays its own.) */
        for (int k = 0; k < g->n; ++k) {
            prog *s = g->single[k] = prog_new(r, e);
            if (!s)
                return AUTOTUNE_ENOMEM;
            s->handled = 0;
            s->idx[0] = g->idx[k];
            s->n = s->left = s->kernels = 1;
            at_family_kernel_symbol(r->p->family, 0, s->kernel[0],
                                 AT_KERNEL_NAME);
            s->src[0] = strdup(g->src[k]);
            if (!s->src[0])
                return at_fail(e, AUTOTUNE_ENOMEM, "program of variants");
            int rc = at_prog_submit(r, s, e);
            if (rc)
                return rc;
        }
        return 0;
    }
    if (!g->cj.rc)
        o->kernels += (size_t)g->kernels;
    if (!g->cj.rc && r->o->cubins) {
        /* Every point's source, an alias's with its original's kernel,
         * so a warm tune finds each. */
        const char *srcs[PROG_POINTS], *kernels[PROG_POINTS];
        for (int k = 0; k < g->n; ++k) {
            srcs[k] = g->src[k];
            kernels[k] = g->kernel[k];
        }
        at_err w = {0};
        int rc = at_cubins_put(r->o->cubins, &r->cc.ckey, g->n, srcs, kernels,
                               g->cj.cubin, g->cj.size, &w);
        if (rc)
            return at_fail(e, rc, "%s", w.msg);
    }
    return 0;
}
