#include "emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/safefile.h"
#include "ident.h"

/* Text from outside (the command line, paths, a cache's fields) inside the
 * provenance comment: printable ASCII passes; a comment's end or start is
 * broken by a backslash, any other byte written as \xNN. Nothing can
 * leave the comment, so nothing reaches the compiler as code. */
void at_emit_comment_text(const char *in, char *out, size_t n)
{
    size_t k = 0;
    if (!n)
        return;
    for (const unsigned char *c = (const unsigned char *)(in ? in : "");
         *c && k + 5 < n; ++c) {
        if ((c[0] == '*' && c[1] == '/') || (c[0] == '/' && c[1] == '*')) {
            out[k++] = (char)c[0];
            out[k++] = '\\';
        } else if (*c >= 0x20 && *c < 0x7f) {
            out[k++] = (char)*c;
        } else {
            k += (size_t)snprintf(out + k, n - k, "\\x%02x", *c);
        }
    }
    out[k] = '\0';
}

void at_emit_line(FILE *f, const char *label, const char *text)
{
    char safe[4200];
    at_emit_comment_text(text, safe, sizeof safe);
    fprintf(f, " * %-9s %s\n", label, safe);
}

/* Reading back a launcher's text (at_emit_launcher_read): C as the
 * families write it, comments and literals skipped. */
static int ident(int c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
}

/* Past a comment or a string or character literal at s + i, else i. */
static size_t skip(const char *s, size_t i)
{
    if (s[i] == '/' && s[i + 1] == '*') {
        const char *end = strstr(s + i + 2, "*/");
        return end ? (size_t)(end - s) + 2 : strlen(s);
    }
    if (s[i] == '/' && s[i + 1] == '/')
        return i + strcspn(s + i, "\n");
    if (s[i] != '"' && s[i] != '\'')
        return i;
    size_t k = i + 1;
    while (s[k] && s[k] != s[i])
        k += s[k] == '\\' && s[k + 1] ? 2 : 1;
    return s[k] ? k + 1 : k;
}

/* The offset past the bracket closing the one at s + i (0: none). */
static size_t closing(const char *s, size_t i, char open, char close)
{
    int depth = 0;
    while (s[i]) {
        size_t j = skip(s, i);
        if (j != i) {
            i = j;
            continue;
        }
        depth += (s[i] == open) - (s[i] == close);
        if (++i, depth == 0)
            return i;
    }
    return 0;
}

/* The parameters' names: each one's last identifier. */
static void params(const char *s, size_t from, size_t to, at_emit_fn *g)
{
    for (size_t i = from; i < to && g->n_params < AT_EMIT_MAX_PARAMS;) {
        size_t end = i, last = 0, last_end = 0;
        while (end < to && s[end] != ',') {
            if (ident(s[end]) && (end == i || !ident(s[end - 1])))
                last = end;
            if (ident(s[end]))
                last_end = end + 1;
            ++end;
        }
        if (last_end > last && last_end - last < sizeof g->param[0])
            snprintf(g->param[g->n_params++], sizeof g->param[0], "%.*s",
                     (int)(last_end - last), s + last);
        i = end + 1;
    }
}

/* A definition "RET NAME...(...) {...}" with its name at s[at, end)? */
static int definition(const char *s, size_t at, size_t end, at_emit_fn *g)
{
    size_t k = end;
    while (s[k] == ' ' || s[k] == '\n')
        ++k;
    size_t close = s[k] == '(' ? closing(s, k, '(', ')') : 0;
    if (!close)
        return 0;
    size_t body = close;
    while (s[body] == ' ' || s[body] == '\n')
        ++body;
    size_t stop = s[body] == '{' ? closing(s, body, '{', '}') : 0;
    if (!stop)
        return 0;
    memset(g, 0, sizeof *g);
    g->name_at = at;
    g->name_end = end;
    g->body_at = body;
    g->end = stop + (s[stop] == '\n');
    g->start = at;
    while (g->start && s[g->start - 1] != '\n')
        --g->start;
    char pre[128];
    snprintf(pre, sizeof pre, "%.*s", (int)(at - g->start), s + g->start);
    g->extern_c = strstr(pre, "extern \"C\"") != NULL;
    const char *r = g->extern_c ? strstr(pre, "\"C\"") + 3
                    : strncmp(pre, "static ", 7) == 0 ? pre + 7 : pre;
    r += strspn(r, " ");
    snprintf(g->ret, sizeof g->ret, "%.*s", (int)strcspn(r, " "), r);
    params(s, k + 1, close - 1, g);
    return 1;
}

/* Whether the body of g names something of the point: an AT_ macro, the
 * kernel, or a helper marked already. A call of an extern "C" function
 * does not count: emit_multi.c makes those choose a kernel by shape. */
static int names_point(const char *s, const at_emit_fn *fns, int n,
                       const at_emit_fn *g, const char *name)
{
    size_t len = strlen(name);
    for (size_t i = g->body_at; i < g->end;) {
        size_t j = skip(s, i);
        if (j != i || !ident(s[i]) || (i && ident(s[i - 1]))) {
            i = j != i ? j : i + 1;
            continue;
        }
        size_t k = i;
        while (ident(s[k]))
            ++k;
        if (strncmp(s + i, "AT_", 3) == 0 ||
            (k - i == len + 7 && strncmp(s + i, name, len) == 0 &&
             strncmp(s + i + len, "_kernel", 7) == 0))
            return 1;
        for (int f = 0; f < n; ++f) /* a helper (not extern "C") */
            if (fns[f].specific && !fns[f].extern_c &&
                fns[f].name_end - fns[f].name_at == k - i &&
                strncmp(s + fns[f].name_at, s + i, k - i) == 0)
                return 1;
        i = k;
    }
    return 0;
}

/* The top-level definitions of s whose names start with name, and which
 * depend on the point. */
static int read_fns(const char *s, const char *name, at_emit_fn *fns,
                    int max)
{
    size_t len = strlen(name);
    int depth = 0, n = 0;
    for (size_t i = 0; s[i];) {
        size_t j = skip(s, i);
        if (j != i) {
            i = j;
            continue;
        }
        depth += (s[i] == '{') - (s[i] == '}');
        if (depth || !ident(s[i]) || (i && ident(s[i - 1]))) {
            ++i;
            continue;
        }
        size_t k = i;
        while (ident(s[k]))
            ++k;
        if (n < max && strncmp(s + i, name, len) == 0 &&
            (k - i == len || s[i + len] == '_') &&
            definition(s, i, k, &fns[n]))
            k = fns[n++].end;
        i = k;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (int f = 0; f < n; ++f)
            if (!fns[f].specific && names_point(s, fns, n, &fns[f], name))
                changed = fns[f].specific = 1;
    }
    return n;
}

/* "#undef X" on f for each "#define X" in text that done (n bytes, " "
 * to start) does not hold yet, adding it there. */
static void undefs(FILE *f, const char *text, char *done, size_t n)
{
    for (const char *c = text; (c = strstr(c, "#define "));) {
        c += 8;
        size_t len = strcspn(c, " (\t\n"), used = strlen(done);
        char name[128];
        snprintf(name, sizeof name, " %.*s ", (int)len, c);
        if (len + 2 >= sizeof name || strstr(done, name))
            continue;
        fprintf(f, "#undef %s\n", name + 1);
        if (used + len + 2 < n)
            snprintf(done + used, n - used, "%s", name + 1);
    }
}

/* How the point was obtained, in words. The default point is what a
 * provenance without tuned says, whatever its how. */
static void how_text(const at_provenance *pv, char *buf, size_t n)
{
    if (pv->how == AUTOTUNE_HOW_REUSED)
        snprintf(buf, n, "reused: the best point of the nearest tuned "
                 "problem, %s (an estimate: no search, not timed on this "
                 "problem)", pv->from ? pv->from : "?");
    else if (!pv->tuned)
        snprintf(buf, n, "the family's default point (not tuned)");
    else if (pv->how == AUTOTUNE_HOW_CACHED)
        snprintf(buf, n, "from the tuning cache (tuned by an earlier run)");
    else
        snprintf(buf, n, "tuned by this run");
}

void at_emit_provenance(FILE *f, const at_problem *p,
                        const at_provenance *pv)
{
    char text[1400];
    how_text(pv, text, sizeof text);
    at_emit_line(f, "how:", text);
    if (pv->tuned) {
        snprintf(text, sizeof text, "%s on %s (sm_%d, %d SMs), driver %s "
                 "(CUDA %d.%d),", pv->tuned_at, pv->gpu, pv->sm, pv->sms,
                 pv->driver_build ? pv->driver_build : "unknown",
                 pv->driver / 1000, pv->driver % 1000 / 10);
        at_emit_line(f, "tuned:", text);
        snprintf(text, sizeof text, "NVRTC %s", pv->nvrtc);
        at_emit_line(f, "", text);
        if (pv->how == AUTOTUNE_HOW_REUSED)
            at_emit_line(f, "measured:", "nothing on this problem (that "
                         "problem's figures are in the cache)");
        else
            fprintf(f,
                    " * measured: median %.4f ms, %.1f GB/s, %.1f%% of the "
                    "device-to-device\n"
                    " *           copy bandwidth measured in the same run "
                    "(%.1f GB/s)\n", pv->median_ms, pv->gbps,
                    100 * pv->frac_copy, pv->copy_gbps);
        if (p->family->ops.flops(p) > 0 && pv->median_ms > 0)
            fprintf(f, " *           %.1f GFLOP/s\n",
                    p->family->ops.flops(p) / pv->median_ms / 1e6);
    } else {
        snprintf(text, sizeof text, "the family's default point for sm_%d "
                 "(%s).", pv->sm, pv->why ? pv->why : "no tuned entry");
        at_emit_line(f, "NOT TUNED:", text);
        char run[1200];
        const char *from = p->family->origin.path;
        at_emit_comment_text(from, text, sizeof text);
        snprintf(run, sizeof run, *from ? "kernel %s" : "%s",
                 *from ? text : p->family->name);
        fprintf(f, " *           Run `autotune %s --arch auto` on such a GPU "
                "to tune it.\n", run);
    }
    if (!at_family_verifies(p->family))
        at_emit_line(f, "NOT VERIFIED:", "the spec says verify: none; no "
                     "variant was compared with a reference");
    else if (pv->unchecked)
        at_emit_line(f, "NOT VERIFIED:", "this point never ran on this "
                     "problem (no GPU of the architecture here)");
}

void at_emit_header_start(FILE *f, const char *command)
{
    char now[32];
    at_utc_now(now, sizeof now);
    fprintf(f, "/* GENERATED by autotune %s: do not edit; regenerate "
            "instead.\n *\n", AUTOTUNE_VERSION);
    at_emit_line(f, "command:", command ? command : "(API)");
    at_emit_line(f, "emitted:", now);
}

static void header(FILE *f, const at_problem *p, const at_point *pt,
                   const char *name, const at_provenance *pv)
{
    char point[128], params[256], prob[512], usage[512];
    char text[1400];
    p->family->ops.point_name(p->family, pt, point, sizeof point);
    at_point_params(p->family, pt, params, sizeof params);
    at_problem_str(p, prob, sizeof prob);
    p->family->ops.usage(p, name, usage, sizeof usage);
    at_emit_header_start(f, pv->command);
    at_emit_line(f, "problem:", prob);
    at_emit_line(f, "point:", point);
    at_emit_line(f, "", params);
    at_emit_line(f, "template:", p->family->template_path);
    p->family->ops.paths_text(p->family->ops.paths(p, pt), text, sizeof text);
    at_emit_line(f, "paths:", text);
    at_emit_provenance(f, p, pv);
    if (pv->min_blocks > 1) {
        const char *how =
            at_emit_bounds_text(p, pt, pv->min_blocks, pv->regs);
        if (pv->regs > 0)
            snprintf(text, sizeof text, "%d blocks an SM, %d registers a "
                     "thread as tuned: %s", pv->min_blocks, pv->regs, how);
        else
            snprintf(text, sizeof text, "%d blocks an SM as tuned: %s",
                     pv->min_blocks, how);
        at_emit_line(f, "occupancy:", text);
    }
    /* The family's own compile options (a spec's kernel.options but its
     * -D, which are #defines above): the tuned kernel needs them. */
    const char *own = p->family->nvrtc_options;
    if (*own)
        at_emit_line(f, "options:", own);
    at_emit_tuned_line(f, pv);
    snprintf(text, sizeof text, "nvcc -arch=sm_%d %s%s-c this.cu; %s",
             pv->sm, own, *own ? " " : "", usage);
    fprintf(f, " *\n");
    at_emit_line(f, "Build:", text);
    fprintf(f, " */\n#include <cuda_runtime.h>\n");
    if (p->type->header)
        fprintf(f, "#include <%s>\n", p->type->header);
    at_emit_launch_helpers(f);
    fputc('\n', f);
}

int at_emit_launcher_alike(const at_emit_launcher *a, const char *an,
                           const at_emit_launcher *b, const char *bn)
{
    size_t alen = strlen(an), blen = strlen(bn);
    int same = a->n == b->n;
    for (int f = 0; same && f < a->n; ++f) {
        const at_emit_fn *x = &a->fns[f], *y = &b->fns[f];
        same = x->name_end - x->name_at - alen ==
                   y->name_end - y->name_at - blen &&
               strncmp(a->text + x->name_at + alen,
                       b->text + y->name_at + blen,
                       x->name_end - x->name_at - alen) == 0 &&
               x->extern_c == y->extern_c && strcmp(x->ret, y->ret) == 0 &&
               x->n_params == y->n_params;
        for (int q = 0; same && q < x->n_params; ++q)
            same = strcmp(x->param[q], y->param[q]) == 0;
    }
    return same;
}

void at_emit_device_value_c(FILE *f, const char *fn, const char *what,
                            const char *ask)
{
    fprintf(f, "/* The current device's %s, asked once per device. */\n"
            "static cudaError_t %s(int *v)\n{\n"
            "    static std::atomic<int> known[64];\n"
            "    int dev = 0;\n"
            "    cudaError_t err = cudaGetDevice(&dev);\n"
            "    const bool kept = err == cudaSuccess && dev >= 0 && dev < 64;"
            "\n    if (kept && (*v = known[dev].load()) != 0)\n"
            "        return cudaSuccess;\n"
            "    if (err == cudaSuccess) {\n%s    }\n"
            "    if (err == cudaSuccess && kept)\n"
            "        known[dev].store(*v);\n"
            "    return err;\n}\n\n", what, fn, ask);
}

void at_emit_device_sm_c(FILE *f, const char *nm)
{
    char fn[160];
    snprintf(fn, sizeof fn, "%s_device_sm", nm);
    at_emit_device_value_c(
        f, fn, "architecture (90 for 9.0)",
        "        int major = 0, minor = 0;\n"
        "        err = cudaDeviceGetAttribute(&major,\n"
        "            cudaDevAttrComputeCapabilityMajor, dev);\n"
        "        if (err == cudaSuccess)\n"
        "            err = cudaDeviceGetAttribute(&minor,\n"
        "                cudaDevAttrComputeCapabilityMinor, dev);\n"
        "        *v = major * 10 + minor;\n");
}

int at_emit_launcher_read(at_emit_launcher *l, const at_problem *p,
                          const at_point *pt, const char *name, at_err *e)
{
    size_t size = 0;
    l->text = NULL;
    l->n = 0;
    FILE *f = open_memstream(&l->text, &size);
    if (f)
        p->family->ops.emit_launcher(f, p, pt, name);
    if (!f || fclose(f) != 0) {
        free(l->text);
        l->text = NULL;
        return at_fail(e, AUTOTUNE_ENOMEM, "writing a launcher");
    }
    l->n = read_fns(l->text, name, l->fns, AT_EMIT_MAX_FNS);
    return 0;
}

void at_emit_variant(FILE *f, const at_problem *p, const at_point *pt,
                     unsigned paths, int min_blocks, int regs,
                     const char *name, const char *launcher)
{
    char defs[1024], done[4096] = " ", point[128], safe[600];
    char scope[160], open[192] = "", close[8] = "";
    /* A variant beside others (a launcher follows) in a scope of its
     * own, as the family keeps names apart. */
    snprintf(scope, sizeof scope, "%s_ns", name);
    if (launcher) {
        p->family->ops.scope(scope, 0, open, sizeof open);
        p->family->ops.scope(scope, 1, close, sizeof close);
    }
    p->family->ops.defines(p, pt, paths, defs, sizeof defs);
    if (min_blocks > 1) { /* with the point's macros: undefined with them */
        size_t len = strlen(defs);
        snprintf(defs + len, sizeof defs - len, "#define AT_MIN_BLOCKS %d\n",
                 min_blocks);
        len = strlen(defs);
        if (at_emit_max_regs(p, pt, min_blocks, regs))
            snprintf(defs + len, sizeof defs - len,
                     "#define AT_MAX_REGS %d\n", regs);
    }
    if (launcher) {
        p->family->ops.point_name(p->family, pt, point, sizeof point);
        at_emit_comment_text(point, safe, sizeof safe);
        fprintf(f, "/* ---- %s: %s ---- */\n", name, safe);
    }
    fputs(open, f);
    fprintf(f, "%s#define AT_KERNEL %s_kernel\n\n", defs, name);
    fputs(p->family->template_src, f);
    fputc('\n', f);
    if (!launcher) {
        p->family->ops.emit_launcher(f, p, pt, name);
        return;
    }
    fprintf(f, "%s%s#undef AT_KERNEL\n", launcher, close);
    undefs(f, defs, done, sizeof done);
    undefs(f, p->family->template_src, done, sizeof done);
    undefs(f, launcher, done, sizeof done);
    fputc('\n', f);
}

static void write_all(FILE *f, const at_problem *p, const at_point *pt,
                      const char *name, const at_provenance *pv)
{
    header(f, p, pt, name, pv);
    at_emit_variant(f, p, pt, p->family->ops.paths(p, pt), pv->min_blocks,
                    pv->regs, name, NULL);
    at_emit_tuned_build(f, pv, name);
}

int at_emit(const char *path, const at_problem *p, const at_point *pt,
            const char *name, const at_provenance *pv, at_err *e)
{
    at_safefile s;
    int rc = at_ident_check(name, e);
    if (rc) {
        at_err_prefix(e, "launcher name: ");
        return rc;
    }
    rc = at_safefile_open(&s, path, e);
    if (rc)
        return rc;
    write_all(s.f, p, pt, name, pv);
    return at_safefile_commit(&s, e);
}
