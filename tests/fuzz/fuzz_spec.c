/* libFuzzer: spec files (spec/spec.h) as YAML or JSON text; a spec that
 * loads has its space enumerated (small spaces only), then becomes a
 * family (spec/spec.h, not registered): its default problem made,
 * its first points named, checked against the constraint, launched,
 * given arguments, copies and the input's first contents, its init
 * kernel's arguments and launch, its checks' segments, its launcher and
 * its harness's manifest written; then freed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/spec.h"
#include "spec/spec_space.h"

/* The family's hooks on its default problem, for the first few points. */
static void exercise(const at_family *f)
{
    at_problem p = {.family = f, .type = at_type_find(f->types)};
    at_err e = {0};
    for (int i = 0; i < f->n_fields; ++i)
        p.v[i] = f->fields[i].def;
    if (!p.type || f->ops.finish(&p, &e))
        return;
    at_limits l;
    at_limits_for_arch(90, &l);
    at_point *pts = NULL;
    size_t n = 0;
    if (at_space_points(f, &p, &l, &pts, &n, &e) || !n) {
        free(pts);
        return;
    }
    char buf[4096];
    at_args a0;
    at_launch g0;
    for (size_t i = 0; i < n && i < 4; ++i) {
        at_launch g;
        at_args a;
        at_copy c[AT_MAX_COPIES];
        f->ops.point_name(f, &pts[i], buf, sizeof buf);
        f->ops.valid(&p, &pts[i], &l, buf, sizeof buf);
        f->ops.launch(&p, &pts[i], &g);
        f->ops.args(&p, &pts[i], 1 << 20, 2 << 20, 0, 0, &a);
        f->ops.copies(&p, c, AT_MAX_COPIES);
        f->ops.defines(&p, &pts[i], 0, buf, sizeof buf);
    }
    f->ops.where(&p, 0, buf, sizeof buf);
    f->ops.usage(&p, "fuzz", buf, sizeof buf);
    if (p.in_bytes <= (1u << 16)) {
        uint32_t *w = calloc(p.in_bytes / 4 + 1, 4);
        if (w) {
            f->ops.input(&p, 1, 0, w, 0, p.in_bytes / 4);
            if (f->ops.init_args)
                f->ops.init_args(&p, 1 << 20, &a0);
        }
        free(w);
    }
    at_check_seg segs[AT_MAX_SEGS];
    if (f->ops.check_segments)
        f->ops.check_segments(&p, segs, AT_MAX_SEGS);
    if (f->ops.init_launch)
        f->ops.init_launch(&p, &pts[0], &g0);
    if (f->ops.ref_launch)
        f->ops.ref_launch(&p, &pts[0], &g0);
    FILE *sink = fopen("/dev/null", "w");
    if (sink) {
        f->ops.emit_launcher(sink, &p, &pts[0], "fuzz");
        at_spec_manifest(&p, "fuzz", sink, &e);
        fclose(sink);
    }
    free(pts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    at_spec s;
    at_err e = {0};
    /* Sources are read relative to the vector_add example's folder. */
    if (at_spec_load_text(text, "fuzz.yaml", "examples/kernels/vector_add",
                          &s, &e) == 0) {
        size_t total = 1;
        for (int i = 0; i < s.n_params; ++i)
            total *= (size_t)s.params[i].n;
        at_limits l;
        at_spec_space sp;
        if (total <= 4096 && at_limits_for_arch(90, &l) &&
            at_spec_space_make(&s, s.size, &l, &sp, &e) == 0)
            at_spec_space_free(&sp);
        const at_family *f;
        if (total <= 4096 && at_spec_family_make(&s, &f, &e) == 0) {
            exercise(f);
            at_spec_family_free(f);
        } else {
            at_spec_free(&s);
        }
    } else if (!e.msg[0]) {
        abort(); /* an error always says what */
    }
    free(text);
    return 0;
}
