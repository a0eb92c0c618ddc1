/* `autotune space FAMILY`: the axes, the constraints' count and every
 * point's name, for a problem and an architecture. */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "errors.h"
#include "gen/family.h"
#include "json.h"

/* autotune.space/1: the target, the problem, the axes, every point. */
static int json_space(const at_problem *p, const at_limits *l,
                      const at_point *pts, size_t n)
{
    const at_family *f = p->family;
    json_t *o = at_json_problem(at_json_object("autotune.space/1"), p);
    at_json_int(o, "sm", l->sm);
    at_json_int(o, "max_threads", l->max_threads);
    at_json_int(o, "max_smem_bytes", l->max_smem);
    json_t *axes = json_array();
    for (int a = 0; a < f->n_axes; ++a) {
        json_t *ax = at_json_object(NULL), *vals = json_array();
        at_json_str(ax, "name", f->axes[a].name);
        at_json_str(ax, "help", f->axes[a].help);
        for (int k = 0; k < f->axes[a].n; ++k)
            json_array_append_new(vals, json_integer(f->axes[a].values[k]));
        at_json_put(ax, "values", vals);
        json_array_append_new(axes, ax);
    }
    at_json_put(o, "axes", axes);
    at_json_str(o, "derived", f->derived);
    at_json_int(o, "points_before_constraints", (int64_t)at_space_size(f));
    at_json_int(o, "points_after_constraints", (int64_t)n);
    json_t *names = json_array();
    for (size_t i = 0; i < n; ++i) {
        char name[128];
        f->ops.point_name(f, &pts[i], name, sizeof name);
        json_array_append_new(names, json_string(name));
    }
    at_json_put(o, "points", names);
    return at_json_print(o);
}

int at_cmd_space(const opts *o, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    at_limits l;
    int sm = at_parse_arch(o->arch);
    if (!sm || !at_limits_for_arch(sm, &l)) {
        at_cli_say("space needs --arch sm_XX of a known "
                        "architecture (%s), got '%s'\n", AT_KNOWN_ARCHS,
                o->arch);
        return 2;
    }
    at_problem p;
    if (at_opts_problem(o, &p))
        return 2;
    const at_family *f = p.family;
    at_err e = {0};
    at_point *pts;
    size_t n;
    if (at_space_points(f, &p, &l, &pts, &n, &e)) {
        at_cli_fail(&e);
        return 1;
    }
    if (o->json) {
        int rc = json_space(&p, &l, pts, n);
        free(pts);
        return rc ? 1 : 0;
    }
    char prob[256];
    at_problem_key_text(&p, prob, sizeof prob);
    printf("family %s%s%s, sm_%d (%d threads, %d bytes of shared memory "
           "per block)\nproblem: %s\naxes:\n", f->name,
           p.type == at_type_none() ? "" : ", type ",
           p.type == at_type_none() ? "" : p.type->name, sm, l.max_threads,
           l.max_smem, prob);
    for (int a = 0; a < f->n_axes; ++a) {
        printf("  %-9s", f->axes[a].name);
        for (int k = 0; k < f->axes[a].n; ++k)
            printf("%s%d", k ? "," : " ", f->axes[a].values[k]);
        printf(*f->axes[a].help ? "  (%s)\n" : "\n", f->axes[a].help);
    }
    if (f->derived && *f->derived)
        printf("derived:\n  %s\n", f->derived);
    printf("points: %zu before constraints, %zu after\n", at_space_size(f),
           n);
    for (size_t i = 0; i < n; ++i) {
        char name[128];
        f->ops.point_name(f, &pts[i], name, sizeof name);
        printf("%s\n", name);
    }
    free(pts);
    return 0;
}
