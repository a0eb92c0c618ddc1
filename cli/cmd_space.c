/* `autotune space FAMILY`: the axes, the constraints' count and every
 * point's name, for a problem and an architecture. */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "gen/family.h"

int at_cmd_space(const opts *o, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    at_limits l;
    int sm = at_parse_arch(o->arch);
    if (!sm || !at_limits_for_arch(sm, &l)) {
        fprintf(stderr, "autotune: space needs --arch sm_XX of a known "
                        "architecture (%s), got '%s'\n", AT_KNOWN_ARCHS,
                o->arch);
        return 2;
    }
    at_problem p;
    if (at_opts_problem(o, &p))
        return 2;
    const at_family *f = p.family;
    char prob[256];
    at_problem_key_text(&p, prob, sizeof prob);
    printf("family %s, type %s, sm_%d (%d threads, %d bytes of shared "
           "memory per block)\nproblem: %s\naxes:\n",
           f->name, p.type->name, sm, l.max_threads, l.max_smem, prob);
    for (int a = 0; a < f->n_axes; ++a) {
        printf("  %-9s", f->axes[a].name);
        for (int k = 0; k < f->axes[a].n; ++k)
            printf("%s%d", k ? "," : " ", f->axes[a].values[k]);
        printf("  (%s)\n", f->axes[a].help);
    }
    if (f->derived)
        printf("derived:\n  %s\n", f->derived);
    at_err e = {0};
    at_point *pts;
    size_t n;
    if (at_space_points(f, &p, &l, &pts, &n, &e)) {
        fprintf(stderr, "autotune: %s\n", e.msg);
        return 1;
    }
    printf("points: %zu before constraints, %zu after\n", at_space_size(f),
           n);
    for (size_t i = 0; i < n; ++i) {
        char name[128];
        f->point_name(&pts[i], name, sizeof name);
        printf("%s\n", name);
    }
    free(pts);
    return 0;
}
