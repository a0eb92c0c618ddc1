#include "expand.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* paths: NULL for the ones the problem needs. */
static char *expand(const at_problem *p, const at_point *pt,
                    const char *kernel_name, const char *hook,
                    const unsigned *paths, at_err *e)
{
    const at_family *f = p->family;
    char name[128], defs[1024];
    f->ops.point_name(f, pt, name, sizeof name);
    f->ops.defines(p, pt, paths ? *paths : f->ops.paths(p, pt), defs, sizeof defs);
    /* The element size, not the type's name: types of one size share
     * their compiled variants. */
    const char *fmt = "/* %s, %d-byte elements: %s */\n%s%s%s%s#define "
                      "AT_KERNEL %s\n#line 1 \"%s\"\n";
    const char *h0 = hook ? "#define AT_TEST_HOOK " : "";
    const char *h1 = hook ? "\n" : "";
    hook = hook ? hook : "";
    int n = snprintf(NULL, 0, fmt, f->name, p->type->bytes, name, h0, hook,
                     h1, defs, kernel_name, f->template_path);
    /* The template is copied, not formatted: printf's %s of 24 KB costs
     * 0.1 ms, a warm tune's largest CPU cost per point. */
    size_t body = strlen(f->template_src);
    char *src = n < 0 ? NULL : malloc((size_t)n + body + 1);
    if (!src) {
        at_fail(e, AUTOTUNE_ENOMEM, "expanding %s", name);
        return NULL;
    }
    snprintf(src, (size_t)n + 1, fmt, f->name, p->type->bytes, name, h0,
             hook, h1, defs, kernel_name, f->template_path);
    memcpy(src + n, f->template_src, body + 1);
    return src;
}

char *at_expand(const at_problem *p, const at_point *pt,
                const char *kernel_name, const char *hook, at_err *e)
{
    return expand(p, pt, kernel_name, hook, NULL, e);
}

void at_program_kernel(int i, char *buf, size_t n)
{
    snprintf(buf, n, "%s_%d", AT_KERNEL_SYMBOL, i);
}


/* Appends to a growing buffer; 0 or -1 on no memory. */
typedef struct sbuf {
    char *s;
    size_t len, cap;
} sbuf;

static int put(sbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->len + n + 1 > cap)
            cap *= 2;
        char *g = realloc(b->s, cap);
        if (!g)
            return -1;
        b->s = g;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
    return 0;
}

static char *program(const at_problem *p, const at_point *const *pts,
                     const char *const *hooks, int k, const unsigned *paths,
                     at_err *e)
{
    sbuf b = {0};
    int bad = 0;
    const at_family *f = p->family;
    if (at_family_program_points(f, k) != k) {
        at_fail(e, AUTOTUNE_EINVALID, "%s compiles at most %d points a "
                "program, not %d", f->name, at_family_program_points(f, k),
                k);
        return NULL;
    }
    for (int i = 0; i < k && !bad; ++i) {
        char name[32], scope[32], head[64], tail[8];
        at_family_kernel_symbol(f, i, name, sizeof name);
        char *src =
            expand(p, pts[i], name, hooks ? hooks[i] : NULL, paths, e);
        if (!src)
            break;
        /* Each point in a scope of its own (a family that keeps its
         * source's names has none, and one point a program). */
        snprintf(scope, sizeof scope, "at_point_%d", i);
        f->ops.scope(scope, 0, head, sizeof head);
        f->ops.scope(scope, 1, tail, sizeof tail);
        bad = put(&b, head, strlen(head)) || put(&b, src, strlen(src)) ||
              (*tail && put(&b, "\n", 1)) || put(&b, tail, strlen(tail));
        /* The next point defines the same macros its own way. */
        for (const char *c = src; !bad && i + 1 < k &&
                                  (c = strstr(c, "#define "));) {
            c += 8;
            size_t n = strcspn(c, " (\t\n");
            bad = put(&b, "#undef ", 7) || put(&b, c, n) ||
                  put(&b, "\n", 1);
        }
        free(src);
        if (bad || i + 1 < k)
            continue;
        return b.s;
    }
    free(b.s);
    if (!e || !e->code)
        at_fail(e, AUTOTUNE_ENOMEM, "expanding a program of %d points", k);
    return NULL;
}

char *at_expand_program(const at_problem *p, const at_point *const *pts,
                        const char *const *hooks, int k, at_err *e)
{
    return program(p, pts, hooks, k, NULL, e);
}

char *at_expand_program_paths(const at_problem *p,
                              const at_point *const *pts, int k,
                              unsigned paths, at_err *e)
{
    return program(p, pts, NULL, k, &paths, e);
}
