/* One .cu for many problems and architectures (emit_multi.h).
 *
 * The family's launcher is written twice over: once per kernel under
 * NAME_k<i> (inside namespace NAME_k<i>_ns with its point's macros and
 * the template, so that the points' helpers cannot collide), and once
 * under NAME, read back as text (gen/emit.h): each of its functions that
 * depends on the point (names an AT_ macro, the kernel, or such a helper)
 * is replaced by a dispatcher with the same signature, and the rest (a
 * launcher for one matrix that calls the batched one) is kept as it is,
 * so it calls the dispatchers. The launcher's parameters that have a
 * number field's name give the field's value for the distance. */
#include "emit_multi.h"

#include "emit_multi_impl.h"

#include <stdlib.h>
#include <string.h>

#include "base/safefile.h"
#include "distance.h"
#include "ident.h"

typedef at_emit_fn fn;
typedef at_emit_launcher launcher;

/* The kernel of entry i: an earlier entry's where the two specialise the
 * template alike (the same macros, optional paths aside: a strip is made
 * for its problem's short side), else a new one; paths OR'd. */
static int kernel_of(multi *m, int i)
{
    const at_multi_entry *x = &m->en[i], *y;
    const at_family *fam = x->p.family;
    char a[1024], b[1024];
    int k = 0;
    fam->ops.defines(&x->p, &x->pt, 0, a, sizeof a);
    for (; k < m->n_kernels; ++k) {
        y = &m->en[m->first[k]];
        fam->ops.defines(&y->p, &y->pt, 0, b, sizeof b);
        if (strcmp(a, b) == 0)
            break;
    }
    if (k == m->n_kernels) {
        m->first[k] = i;
        m->paths[m->n_kernels++] = 0;
    }
    m->paths[k] |= fam->ops.paths(&x->p, &x->pt);
    return k;
}

/* Orders the entries, numbers the kernels, merges their paths. */
static int plan_kernels(multi *m, at_err *e)
{
    const at_multi_entry *en = m->en;
    const at_family *fam = en[0].p.family;
    for (int i = 0; i < m->n; ++i) {
        m->kernel[i] = -1;
        if (en[i].p.family != fam || en[i].p.type != en[0].p.type)
            return at_fail(e, AUTOTUNE_EINVALID, "one file holds problems "
                           "of one family and type");
        for (int k = 0; k < fam->n_fields; ++k)
            if (fam->fields[k].choices && en[i].p.v[k] != en[0].p.v[k])
                return at_fail(e, AUTOTUNE_EINVALID, "the problems of one "
                               "file must have the same %s",
                               fam->fields[k].name);
    }
    m->n_order = m->n_kernels = m->n_archs = 0;
    for (int sm = 0, next; (next = -1, 1); sm = next + 1) {
        for (int i = 0; i < m->n; ++i) /* the next architecture up */
            if (en[i].sm >= sm && (next < 0 || en[i].sm < next))
                next = en[i].sm;
        if (next < 0)
            break;
        if (m->n_archs == (int)(sizeof m->archs / sizeof *m->archs))
            return at_fail(e, AUTOTUNE_EINVALID, "too many architectures");
        m->archs[m->n_archs++] = next;
        for (int i = 0; i < m->n; ++i) {
            if (en[i].sm != next)
                continue;
            int dup = -1;
            for (int o = 0; o < m->n_order && dup < 0; ++o)
                if (en[m->order[o]].sm == next &&
                    at_problem_equal(&en[m->order[o]].p, &en[i].p))
                    dup = m->order[o];
            if (dup >= 0) {
                m->kernel[i] = m->kernel[dup];
                continue;
            }
            m->kernel[i] = kernel_of(m, i);
            m->order[m->n_order++] = i;
        }
    }
    m->nf = 0;
    for (int k = 0; k < fam->n_fields; ++k)
        if (!fam->fields[k].choices) {
            m->fname[m->nf] = fam->fields[k].name;
            m->field[m->nf++] = k;
        }
    return m->nf ? 0 : at_fail(e, AUTOTUNE_EINVALID, "%s has no sizes to "
                               "choose by", fam->name);
}

static int multi_init(multi *m, const at_multi_entry *en, int n,
                      at_err *e)
{
    memset(m, 0, sizeof *m);
    m->en = en;
    m->n = n;
    if (n < 1)
        return at_fail(e, AUTOTUNE_EINVALID, "no problems to emit");
    m->kernel = calloc(3 * (size_t)n, sizeof *m->kernel);
    m->paths = calloc((size_t)n, sizeof *m->paths);
    m->order = m->kernel ? m->kernel + n : NULL;
    m->first = m->kernel ? m->kernel + 2 * n : NULL;
    if (!m->kernel || !m->paths)
        return at_fail(e, AUTOTUNE_ENOMEM, "planning the file's kernels");
    return plan_kernels(m, e);
}

static void multi_free(multi *m)
{
    free(m->kernel);
    free(m->paths);
}

int at_multi_kernels(const at_multi_entry *en, int n, int *kernel)
{
    multi m;
    int rc = multi_init(&m, en, n, NULL);
    if (!rc)
        memcpy(kernel, m.kernel, (size_t)n * sizeof *kernel);
    multi_free(&m);
    return rc ? -1 : m.n_kernels;
}

/* The C of number field a's value in the launcher's function g: the
 * parameter of its name; else one of another field that equals it in
 * every problem (reduce's n, cols); else, where it is the same in every
 * problem (or there is one kernel), that value into buf; else NULL. */
static const char *field_value(const multi *m, const fn *g, int a,
                               char *buf, size_t n)
{
    for (int i = 0; i <= m->nf; ++i) {
        int b = i ? i - 1 : a, k = 0, same = 1; /* a's own name first */
        while (k < g->n_params && strcmp(g->param[k], m->fname[b]) != 0)
            ++k;
        for (int o = 0; same && a != b && o < m->n_order; ++o)
            same = m->en[m->order[o]].p.v[m->field[a]] ==
                   m->en[m->order[o]].p.v[m->field[b]];
        if (k < g->n_params && same)
            return g->param[k];
    }
    for (int o = 1; m->n_kernels > 1 && o < m->n_order; ++o)
        if (m->en[m->order[o]].p.v[m->field[a]] !=
            m->en[m->order[0]].p.v[m->field[a]])
            return NULL;
    snprintf(buf, n, "%lldLL", (long long)m->en[0].p.v[m->field[a]]);
    return buf;
}

/* Whether g chooses its kernel by shape (returns cudaError_t or nothing);
 * a function returning a size gives the largest of the kernels'. */
static int chooses(const fn *g)
{
    return strcmp(g->ret, "cudaError_t") == 0 || strcmp(g->ret, "void") == 0;
}

/* The kernels' launchers have the public one's functions (names after
 * NAME, and parameters), and the public one's functions that depend on
 * the point can choose by shape. */
static int check_launchers(const multi *m, const launcher *pub,
                           const launcher *ks, at_err *e)
{
    for (int k = 0; k < m->n_kernels; ++k) {
        char kname[AT_IDENT_MAX + 16];
        snprintf(kname, sizeof kname, "%s_k%d", m->name, k);
        if (!at_emit_launcher_alike(pub, m->name, &ks[k], kname))
            return at_fail(e, AUTOTUNE_EINVALID, "the launchers of kernels "
                           "0 and %d differ: they cannot share one "
                           "signature", k);
    }
    for (int f = 0; f < pub->n; ++f) {
        const fn *g = &pub->fns[f];
        char buf[32];
        for (int a = 0; g->specific && g->extern_c && chooses(g) &&
                        a < m->nf; ++a)
            if (!field_value(m, g, a, buf, sizeof buf))
                return at_fail(e, AUTOTUNE_EINVALID, "cannot choose among "
                               "the kernels by shape in %.*s(): it does "
                               "not take %s, which tells these problems "
                               "apart; emit one file per problem",
                               (int)(g->name_end - g->name_at),
                               pub->text + g->name_at, m->fname[a]);
    }
    return 0;
}

static void distance_c(FILE *f, const char *name, int type_bytes, int n)
{
    fprintf(f,
            "/* gen/distance.c's at_align_class and at_problem_distance "
            "(keep in step),\n * over the %d number fields (choice fields "
            "are equal here). */\n"
            "static int %s_align(long long value)\n{\n"
            "    unsigned long long bytes = (unsigned long long)value * "
            "%dULL;\n    int c = 1;\n"
            "    while (c < 16 && bytes &&\n"
            "           bytes %% (unsigned long long)(2 * c) == 0)\n"
            "        c *= 2;\n    return bytes ? c : 16;\n}\n\n"
            "static double %s_distance(const long long *a, "
            "const long long *b)\n{\n"
            "    double d = 0;\n    for (int i = 0; i < %d; ++i) {\n"
            "        long long x = a[i], y = b[i];\n"
            "        d += fabs(log2((double)(x > 1 ? x : 1)) -\n"
            "                  log2((double)(y > 1 ? y : 1)));\n"
            "        if (%s_align(x) != %s_align(y))\n"
            "            d += %.17g;\n    }\n    return d;\n}\n\n",
            n, name, type_bytes, name, n, name, name, AT_ALIGN_PENALTY);
}

/* The tuned problems and the C of at_problem_distance (gen/distance.c:
 * keep the two in step), the device's architecture, NAME_pick. */
static void dispatch(FILE *f, const multi *m)
{
    const char *nm = m->name;
    const at_multi_entry *en = m->en;
    fprintf(f, "/* ---- dispatch (autotune) ---- */\n"
            "static const int %s_archs[%d] = {", nm, m->n_archs);
    for (int a = 0; a < m->n_archs; ++a)
        fprintf(f, "%s%d", a ? ", " : "", m->archs[a]);
    fprintf(f, "};\n\n/* The tuned problems' number fields:");
    for (int a = 0; a < m->nf; ++a)
        fprintf(f, " %s", m->fname[a]);
    fprintf(f, ". */\nstatic const struct {\n    int sm, kernel;\n"
            "    long long v[%d];\n} %s_tuned[%d] = {\n", m->nf, nm,
            m->n_order);
    for (int o = 0; o < m->n_order; ++o) {
        const at_multi_entry *x = &en[m->order[o]];
        fprintf(f, "    {%d, %d, {", x->sm, m->kernel[m->order[o]]);
        for (int a = 0; a < m->nf; ++a)
            fprintf(f, "%s%lldLL", a ? ", " : "",
                    (long long)x->p.v[m->field[a]]);
        fprintf(f, "}},\n");
    }
    fprintf(f, "};\n\n");
    distance_c(f, nm, en[0].p.type->bytes, m->nf);
    fprintf(f, "/* The kernels for fields v on an sm device, that of the "
            "nearest tuned\n * problem first (the first of equals), each "
            "once: how many into k (0:\n * below every architecture "
            "here). */\n"
            "static int %s_rank(const long long *v, int sm, int *k)\n{\n"
            "    int arch = -1, n = 0;\n    double d[%d];\n"
            "    for (int i = 0; i < %d; ++i)\n"
            "        if (%s_archs[i] <= sm)\n"
            "            arch = %s_archs[i];\n"
            "    for (int i = 0; i < %d; ++i)\n"
            "        d[i] = arch >= 0 && %s_tuned[i].sm == arch\n"
            "                   ? %s_distance(v, %s_tuned[i].v) : -1;\n"
            "    for (;;) {\n        int best = -1, seen = 0;\n"
            "        for (int i = 0; i < %d; ++i)\n"
            "            if (d[i] >= 0 && (best < 0 || d[i] < d[best]))\n"
            "                best = i;\n"
            "        if (best < 0)\n            return n;\n"
            "        for (int j = 0; j < n; ++j)\n"
            "            seen |= k[j] == %s_tuned[best].kernel;\n"
            "        if (!seen)\n            k[n++] = %s_tuned[best].kernel;\n"
            "        d[best] = -1;\n    }\n}\n\n",
            nm, m->n_order, m->n_archs, nm, nm, m->n_order, nm, nm, nm,
            m->n_order, nm, nm);
    at_emit_device_sm_c(f, nm);
    fprintf(f, "/* The kernel a launch with these fields uses on an at_sm "
            "device (0: the\n * current device's); -1 below every "
            "architecture here or if the device\n * query fails. */\n"
            "extern \"C\" int %s_pick(", nm);
    for (int a = 0; a < m->nf; ++a)
        fprintf(f, "long long %s, ", m->fname[a]);
    fprintf(f, "int at_sm)\n{\n    const long long at_v[%d] = {", m->nf);
    for (int a = 0; a < m->nf; ++a)
        fprintf(f, "%s%s", a ? ", " : "", m->fname[a]);
    fprintf(f, "};\n    int at_k[%d];\n"
            "    if (at_sm <= 0 && %s_device_sm(&at_sm) != cudaSuccess)\n"
            "        return -1;\n"
            "    return %s_rank(at_v, at_sm, at_k) ? at_k[0] : -1;\n}\n\n",
            m->n_kernels, nm, nm);
}

/* The dispatcher replacing g: kernel by kernel, nearest first, until one
 * does not refuse the shape (cudaErrorInvalidValue: a strip made for
 * another short side...; not after an error left by an earlier call,
 * which a launcher returns too); returning nothing: the nearest;
 * returning a size: the largest of the architecture's kernels'. */
static void wrapper(FILE *f, const multi *m, const launcher *l,
                    const fn *g)
{
    const at_family *fam = m->en[0].p.family;
    const int err = strcmp(g->ret, "cudaError_t") == 0;
    const int none = strcmp(g->ret, "void") == 0;
    const size_t suffix = g->name_end - g->name_at - strlen(m->name);
    char size[160], max[160];
    snprintf(size, sizeof size, "%s at_x = 0;\n        ", g->ret);
    snprintf(max, sizeof max, "    %s at_m = 0;\n", g->ret);
    fwrite(l->text + g->start, 1, g->body_at - g->start, f);
    fprintf(f, "{\n    int at_sm = 0, at_k[%d];\n%s"
            "    cudaError_t at_r = %s_device_sm(&at_sm);\n"
            "    if (at_r != cudaSuccess)\n        return%s;\n"
            "    const long long at_v[%d] = {", m->n_kernels,
            err || none ? "" : max, m->name,
            err ? " at_r" : none ? "" : " 0", m->nf);
    for (int a = 0; a < m->nf; ++a) {
        char buf[32];
        const char *v = chooses(g) ? field_value(m, g, a, buf, sizeof buf)
                                   : "0";
        fprintf(f, "%s%s", a ? ", " : "", v);
    }
    fprintf(f, "};\n    const int at_n = %s_rank(at_v, at_sm, at_k);\n"
            "%s    for (int at_i = 0; at_i < at_n%s; ++at_i) {\n"
            "        %sswitch (at_k[at_i]) {\n", m->name,
            err ? "    const cudaError_t at_old = cudaPeekAtLastError();\n"
                  "    at_r = cudaErrorNoKernelImageForDevice;\n" : "",
            err ? " &&\n         (at_i == 0 || (at_r == cudaErrorInvalidValue "
                  "&& !at_old))"
                : none ? " && at_i < 1" : "", err || none ? "" : size);
    for (int k = 0; k < m->n_kernels; ++k) {
        fprintf(f, "        case %d:\n            %s", k,
                err ? "at_r = " : none ? "" : "at_x = ");
        char scope[160], qual[192];
        snprintf(scope, sizeof scope, "%s_k%d_ns", m->name, k);
        fam->ops.scope(scope, 2, qual, sizeof qual);
        fputs(qual, f);
        fprintf(f, "%s_k%d%.*s(", m->name, k, (int)suffix,
                l->text + g->name_at + strlen(m->name));
        for (int q = 0; q < g->n_params; ++q)
            fprintf(f, "%s%s", q ? ", " : "", g->param[q]);
        fprintf(f, ");\n            break;\n");
    }
    fprintf(f, "        }\n%s    }\n    return%s;\n}\n",
            err || none ? "" : "        if (at_x > at_m)\n"
                               "            at_m = at_x;\n",
            err ? " at_r" : none ? "" : " at_m");
}

/* The public launcher: each function that depends on the point becomes
 * a dispatcher to the kernels' own (one that is not extern "C", a
 * helper of those, goes); the rest stays as the family wrote it. */
static void public_launcher(FILE *f, const multi *m, const launcher *l)
{
    size_t at = 0;
    for (int i = 0; i < l->n; ++i) {
        const fn *g = &l->fns[i];
        if (!g->specific)
            continue;
        fwrite(l->text + at, 1, g->start - at, f);
        at = g->end;
        if (g->extern_c)
            wrapper(f, m, l, g);
    }
    fputs(l->text + at, f);
}

static void write_all(FILE *f, const multi *m, const char *command,
                      const launcher *pub, const launcher *ks)
{
    at_multi_header(f, m, command);
    for (int k = 0; k < m->n_kernels; ++k) {
        const at_multi_entry *x = &m->en[m->first[k]];
        char kname[AT_IDENT_MAX + 16];
        snprintf(kname, sizeof kname, "%s_k%d", m->name, k);
        at_emit_variant(f, &x->p, &x->pt, m->paths[k],
                        at_multi_min_blocks(m, k), at_multi_max_regs(m, k),
                        kname, ks[k].text);
    }
    dispatch(f, m);
    public_launcher(f, m, pub);
    at_emit_tuned_build(f, NULL, NULL); /* no cubin: one a kernel, later */
}

int at_emit_multi(const char *path, const at_multi_entry *en, int n,
                  const char *name, const char *command, at_err *e)
{
    int rc = at_ident_check(name, e);
    if (rc) {
        at_err_prefix(e, "launcher name: ");
        return rc;
    }
    multi m;
    launcher pub = {0}, *ks = NULL;
    rc = multi_init(&m, en, n, e);
    m.name = name;
    if (!rc && at_family_program_points(en[0].p.family, m.n_kernels) !=
                   m.n_kernels)
        rc = at_fail(e, AUTOTUNE_EINVALID, "%s: its kernel's source cannot "
                     "be compiled twice in one file, and these problems "
                     "need %d points; emit one file per problem",
                     en[0].p.family->name, m.n_kernels);
    if (!rc && !(ks = calloc((size_t)m.n_kernels, sizeof *ks)))
        rc = at_fail(e, AUTOTUNE_ENOMEM, "emitting %d kernels",
                     m.n_kernels);
    if (!rc)
        rc = at_emit_launcher_read(&pub, &en[m.first[0]].p,
                                   &en[m.first[0]].pt, name, e);
    for (int k = 0; !rc && k < m.n_kernels; ++k) {
        char kname[AT_IDENT_MAX + 16];
        snprintf(kname, sizeof kname, "%s_k%d", name, k);
        rc = at_emit_launcher_read(&ks[k], &en[m.first[k]].p,
                                   &en[m.first[k]].pt, kname, e);
    }
    if (!rc)
        rc = check_launchers(&m, &pub, ks, e);
    at_safefile s;
    if (!rc && !(rc = at_safefile_open(&s, path, e))) {
        write_all(s.f, &m, command, &pub, ks);
        rc = at_safefile_commit(&s, e);
    }
    for (int k = 0; ks && k < m.n_kernels; ++k)
        free(ks[k].text);
    free(ks);
    free(pub.text);
    multi_free(&m);
    return rc;
}
