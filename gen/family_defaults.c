/* The defaults of a family's MAY hooks (family.h), put in by
 * at_family_fill where a family leaves a hook NULL, and what generic code
 * asks of a family's program shape. Only here (and family.c) is a hook
 * tested for NULL or a family's trait read (tests/check_layers.pl). */
#include "family.h"

#include <limits.h>
#include <stdio.h>

static unsigned no_paths(const at_problem *p, const at_point *pt)
{
    (void)p;
    (void)pt;
    return 0;
}

static void no_paths_text(unsigned paths, char *buf, size_t n)
{
    (void)paths;
    if (n)
        buf[0] = '\0';
}

static int every_value(const at_problem *p, int a, int value)
{
    (void)p;
    (void)a;
    (void)value;
    return 1;
}

static size_t no_workspace(const at_problem *p, const at_point *pt)
{
    (void)p;
    (void)pt;
    return 0;
}

static int in_and_out(const at_problem *p)
{
    (void)p;
    return 2;
}

static void in_out_args(const at_problem *p, const at_point *pt,
                        const uint64_t *user, uint64_t ws, int pass,
                        at_args *a)
{
    p->family->ops.args(p, pt, user[0], user[1], ws, pass, a);
}

static void namespaces(const char *name, int part, char *buf, size_t n)
{
    static const char *const form[] = {"namespace %s {\n", "}\n", "%s::"};
    snprintf(buf, n, form[part], name);
}

void at_family_scope_none(const char *name, int part, char *buf, size_t n)
{
    (void)name;
    (void)part;
    if (n)
        buf[0] = '\0';
}

static void words_as_they_are(const at_problem *p, uint64_t seed,
                              uint64_t stream, uint32_t *w, size_t first,
                              size_t end)
{
    (void)p, (void)seed, (void)stream, (void)w, (void)first, (void)end;
}

static int64_t one_part(const at_problem *p)
{
    (void)p;
    return 1;
}

static void no_reference(const at_problem *p, const void *in, void *out,
                         void *bound, int64_t first, int64_t end)
{
    (void)p, (void)in, (void)out, (void)bound, (void)first, (void)end;
}

static double bit_for_bit(const at_problem *p, const at_point *pt)
{
    (void)p;
    (void)pt;
    return 0;
}

static int no_check_problem(const at_problem *p, int i, at_problem *out,
                            const char **label, at_err *e)
{
    (void)out;
    (void)label;
    return at_fail(e, AUTOTUNE_EINVALID, "%s has no check problem %d",
                   p->family->name, i);
}

static int every_check(const at_problem *p, const at_point *pt, int i)
{
    (void)p, (void)pt, (void)i;
    return 1;
}

static int any_buffers(const at_problem *p, const at_point *pt,
                       const uint64_t *user)
{
    (void)p, (void)pt, (void)user;
    return 1;
}

static char *no_program(const at_problem *p, const at_limits *l,
                        at_point *pt, char *kernel, size_t n, at_err *e)
{
    (void)l, (void)pt, (void)kernel, (void)n;
    at_fail(e, AUTOTUNE_EINVALID, "%s has no such program", p->family->name);
    return NULL;
}

static void no_launch(const at_problem *p, const at_point *pt, at_launch *g)
{
    (void)p;
    (void)pt;
    *g = (at_launch){{1, 1, 1}, {1, 1, 1}, 0, 1, {1, 1, 1}};
}

static void no_bounds(const at_problem *p, const void *ref, void *bound)
{
    (void)p, (void)ref, (void)bound;
}

static void no_init_args(const at_problem *p, uint64_t in, at_args *a)
{
    (void)p;
    (void)in;
    a->n = 0;
}

static int no_segments(const at_problem *p, at_check_seg *s, int max)
{
    (void)p, (void)s, (void)max;
    return 0;
}

static int no_copies(const at_problem *p, at_copy *c, int max)
{
    (void)p, (void)c, (void)max;
    return 0;
}

static double no_flops(const at_problem *p)
{
    (void)p;
    return 0;
}

#define AT_DEFAULT(hook, fn) (o->hook ? (void)0 : (void)(o->hook = (fn)))

void at_family_fill(at_family *f)
{
    if (f->filled)
        return;
    at_family_ops *o = &f->ops;
    /* Capabilities from the hooks given, before defaults hide them. */
    f->caps |= (o->reference ? AT_CAP_CPU_REFERENCE : 0) |
               (o->ref_source ? AT_CAP_DEVICE_REFERENCE : 0) |
               (o->tolerance ? AT_CAP_TOLERANCE : 0) |
               (o->init_source ? AT_CAP_INIT_KERNEL : 0) |
               (o->input ? AT_CAP_INPUT : 0) |
               (o->check_segments ? AT_CAP_CHECK_SEGMENTS : 0);
    AT_DEFAULT(value_ok, every_value);
    AT_DEFAULT(paths, no_paths);
    AT_DEFAULT(paths_text, no_paths_text);
    AT_DEFAULT(workspace, no_workspace);
    AT_DEFAULT(user_arg_count, in_and_out);
    AT_DEFAULT(user_args, in_out_args);
    AT_DEFAULT(scope, namespaces);
    AT_DEFAULT(input, words_as_they_are);
    AT_DEFAULT(reference_parts, one_part);
    AT_DEFAULT(reference, no_reference);
    AT_DEFAULT(tolerance, bit_for_bit);
    AT_DEFAULT(check_problem, no_check_problem);
    AT_DEFAULT(check_fits, every_check);
    AT_DEFAULT(takes, any_buffers);
    AT_DEFAULT(ref_source, no_program);
    AT_DEFAULT(ref_launch, no_launch);
    AT_DEFAULT(ref_bounds, no_bounds);
    AT_DEFAULT(init_source, no_program);
    AT_DEFAULT(init_launch, no_launch);
    AT_DEFAULT(init_args, no_init_args);
    AT_DEFAULT(check_segments, no_segments);
    AT_DEFAULT(copies, no_copies);
    AT_DEFAULT(flops, no_flops);
    if (!f->meaning)
        f->meaning = "";
    if (!f->nvrtc_options)
        f->nvrtc_options = "";
    if (!f->origin.path)
        f->origin.path = "";
    if (!f->origin.text)
        f->origin.text = "";
    if (!f->origin.source)
        f->origin.source = "";
    if (!f->origin.dir)
        f->origin.dir = "";
    if (f->program_points <= 0)
        f->program_points = INT_MAX;
    f->filled = 1;
}

int at_family_program_points(const at_family *f, int k)
{
    return k > f->program_points ? f->program_points : k;
}

void at_family_kernel_symbol(const at_family *f, int i, char *buf, size_t n)
{
    if (f->program_points == 1)
        snprintf(buf, n, "%s", AT_KERNEL_SYMBOL);
    else
        snprintf(buf, n, "%s_%d", AT_KERNEL_SYMBOL, i);
}

const char *at_family_alone_key(const at_family *f)
{
    return f->program_points == 1 ? "" : "; alone";
}
