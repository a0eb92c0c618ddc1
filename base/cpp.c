/* The preprocessor's digest (base/cpp.h): directives run, macros
 * expanded with hide sets (C11 6.10.3.4, as Prosser's algorithm does),
 * and each token of the result hashed. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpp.h"
#include "base/cpp_impl.h"
#include "base/hash.h"

struct chunk {
    chunk *next;
    size_t used, cap;
    _Alignas(max_align_t) unsigned char data[];
};

/* Bounds on expansions and on the tokens they make: a hostile source
 * cannot make one digest slow or large (a kernel's takes thousands). */
enum { MAX_STEPS = 1 << 18, MAX_TOKENS = 1 << 20, MAX_PARAMS = 64,
       MAX_NEST = 64 };

void *cpp_alloc(cpp *c, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (!c->mem || c->mem->used + n > c->mem->cap) {
        size_t cap = n > 65536 ? n : 65536;
        chunk *k = malloc(sizeof *k + cap);
        if (!k) {
            cpp_bail(c, "out of memory");
            return NULL;
        }
        k->next = c->mem, k->used = 0, k->cap = cap;
        c->mem = k;
    }
    void *p = c->mem->data + c->mem->used;
    c->mem->used += n;
    return memset(p, 0, n);
}

int cpp_bail(cpp *c, const char *fmt, ...)
{
    if (!c->bailed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->why, sizeof c->why, fmt, ap);
        va_end(ap);
    }
    c->bailed = 1;
    return 0;
}

typedef struct macro {
    const ctok *name;
    int fn, n_params, gone; /* gone: #undef'd */
    const ctok *params[MAX_PARAMS];
    const ctok *body; /* up to the next line */
    struct macro *next;
} macro;

static int same_name(const ctok *a, const char *s, int n)
{
    return a->len == n && !memcmp(a->s, s, (size_t)n);
}

static macro *find(cpp *c, const ctok *t)
{
    if (t->kind != CT_IDENT)
        return NULL;
    for (macro *m = c->macros; m; m = m->next)
        if (same_name(m->name, t->s, t->len))
            return m->gone ? NULL : m;
    return NULL;
}

int cpp_defined(cpp *c, const ctok *t)
{
    return find(c, t) != NULL;
}

static int hidden(const hset *h, const ctok *t)
{
    for (; h; h = h->next)
        if (same_name(t, h->name, h->len))
            return 1;
    return 0;
}

static const hset *hide(cpp *c, const hset *h, const ctok *name)
{
    hset *n = cpp_alloc(c, sizeof *n);
    if (n)
        n->name = name->s, n->len = name->len, n->next = h;
    return n;
}

static const hset *unite(cpp *c, const hset *a, const hset *b)
{
    for (; a; a = a->next) {
        hset *n = cpp_alloc(c, sizeof *n);
        if (!n)
            return NULL;
        *n = *a, n->next = b;
        b = n;
    }
    return b;
}

static const hset *intersect(cpp *c, const hset *a, const hset *b)
{
    const hset *out = NULL;
    for (; a; a = a->next) {
        ctok t = {.s = a->name, .len = a->len};
        if (hidden(b, &t) && !(out = hide(c, out, &t)))
            return NULL;
    }
    return out;
}

/* A copy of t (not a line's first: made by an expansion) under hs. */
static ctok *made(cpp *c, const ctok *t, const hset *hs)
{
    if (++c->tokens > MAX_TOKENS) {
        cpp_bail(c, "over %d tokens made by macro expansions", MAX_TOKENS);
        return NULL;
    }
    ctok *n = cpp_alloc(c, sizeof *n);
    if (!n)
        return NULL;
    *n = *t;
    n->bol = 0, n->next = NULL;
    n->hs = hs ? unite(c, t->hs, hs) : t->hs;
    return n;
}

/* The arguments of m's call from t (past its "("): args[i] each
 * EOF-terminated, *rparen the ")". 0 if it bailed. */
static int read_args(cpp *c, const macro *m, const ctok *t, ctok **args,
                     const ctok **rparen)
{
    int n = 0, depth = 0;
    ctok head = {0}, *cur = &head;
    for (;; t = t->next) {
        if (t->kind == CT_EOF || (t->bol && cpp_is(t, "#")))
            return cpp_bail(c, "a call of %.*s not closed before %s",
                            m->name->len, m->name->s,
                            t->kind == CT_EOF ? "the end" : "a directive");
        int end = depth == 0 && (cpp_is(t, ")") || cpp_is(t, ","));
        if (end) {
            if (n >= MAX_PARAMS || !(cur->next = cpp_alloc(c, sizeof(ctok))))
                return cpp_bail(c, "too many arguments");
            args[n++] = head.next;
            head.next = NULL, cur = &head;
            if (cpp_is(t, ")"))
                break;
            continue;
        }
        depth += cpp_is(t, "(") - cpp_is(t, ")");
        if (!(cur = cur->next = made(c, t, NULL)))
            return 0;
    }
    *rparen = t;
    /* m() of a macro without parameters has one empty argument */
    if (m->n_params == 0 && n == 1 && args[0]->kind == CT_EOF)
        n = 0;
    if (n != m->n_params)
        return cpp_bail(c, "%.*s called with %d arguments, not %d",
                        m->name->len, m->name->s, n, m->n_params);
    return 1;
}

static int param_of(const macro *m, const ctok *t)
{
    for (int i = 0; t->kind == CT_IDENT && i < m->n_params; ++i)
        if (same_name(t, m->params[i]->s, m->params[i]->len))
            return i;
    return -1;
}

/* m's body with each parameter replaced by its argument, expanded, all
 * under hs; appended to rest. */
static ctok *substitute(cpp *c, const macro *m, ctok **args, const hset *hs,
                        ctok *rest)
{
    ctok *expanded[MAX_PARAMS] = {0};
    ctok head = {0}, *cur = &head;
    for (const ctok *b = m->body; !b->bol && !c->bailed; b = b->next) {
        int p = param_of(m, b);
        if (p < 0) {
            cur = cur->next = made(c, b, hs);
            if (!cur)
                return NULL;
            continue;
        }
        if (!expanded[p] && !(expanded[p] = cpp_expand_all(c, args[p])))
            return NULL;
        for (const ctok *a = expanded[p]; a->kind != CT_EOF; a = a->next)
            if (!(cur = cur->next = made(c, a, hs)))
                return NULL;
    }
    cur->next = rest;
    return c->bailed ? NULL : head.next;
}

/* If t is a macro's name (a call, for a function-like one), *rest is its
 * expansion followed by what came after it; 1. Else 0, *rest untouched. */
static int expand_one(cpp *c, ctok **rest, ctok *t)
{
    macro *m = hidden(t->hs, t) ? NULL : find(c, t);
    if (!m || (m->fn && !cpp_is(t->next, "(")))
        return 0;
    if (++c->steps > MAX_STEPS)
        return cpp_bail(c, "over %d macro expansions", MAX_STEPS);
    const ctok *after = t->next;
    const hset *hs = t->hs;
    ctok *args[MAX_PARAMS];
    if (m->fn) {
        const ctok *rparen = NULL;
        if (!read_args(c, m, t->next->next, args, &rparen))
            return 0;
        after = rparen->next;
        hs = intersect(c, t->hs, rparen->hs);
    }
    hs = hide(c, hs, m->name);
    ctok *out = hs ? substitute(c, m, args, hs, (ctok *)after) : NULL;
    if (!out)
        return 0;
    *rest = out;
    return 1;
}

ctok *cpp_expand_all(cpp *c, ctok *list)
{
    ctok head = {0}, *cur = &head;
    while (!c->bailed && list->kind != CT_EOF) {
        if (expand_one(c, &list, list))
            continue;
        if (!(cur = cur->next = made(c, list, NULL)))
            return NULL;
        list = list->next;
    }
    if (c->bailed || !(cur->next = cpp_alloc(c, sizeof(ctok))))
        return NULL;
    return head.next;
}

/* The digest: two independent 64-bit hashes of the tokens. */
typedef struct digest {
    uint64_t a, b;
} digest;

static void mix(digest *d, int kind, const char *s, int n)
{
    unsigned char k = (unsigned char)kind, sep = 0x1f;
    d->a = at_hash(at_hash(at_hash(d->a, &k, 1), s, (size_t)n), &sep, 1);
    for (int i = 0; i < n; ++i) {
        d->b ^= (unsigned char)s[i] + ((uint64_t)k << 8);
        d->b = (d->b << 29 | d->b >> 35) * 0xbf58476d1ce4e5b9ULL;
    }
    d->b = (d->b ^ (uint64_t)n) * 0x94d049bb133111ebULL;
}

/* Names whose value depends on where, when or how often. */
static int situational(const ctok *t)
{
    static const char *const NAMES[] = {
        "__LINE__", "__FILE__", "__COUNTER__", "__DATE__", "__TIME__",
        "__TIMESTAMP__", "__BASE_FILE__", "__INCLUDE_LEVEL__", "__VA_ARGS__",
        "__VA_OPT__", "__FILE_NAME__",
    };
    for (size_t i = 0; t->kind == CT_IDENT && i < sizeof NAMES / sizeof *NAMES; ++i)
        if (same_name(t, NAMES[i], (int)strlen(NAMES[i])))
            return 1;
    return 0;
}

static int emit(cpp *c, digest *d, const ctok *t)
{
    if (situational(t))
        return cpp_bail(c, "%.*s", t->len, t->s);
    mix(d, t->kind, t->s, t->len);
    return 1;
}

static int is_hash(const ctok *t)
{
    return cpp_is(t, "#") || cpp_is(t, "%:");
}

static int name_is(const ctok *t, const char *s)
{
    return t->kind == CT_IDENT && same_name(t, s, (int)strlen(s));
}

static ctok *next_line(ctok *t)
{
    while (!t->bol)
        t = t->next;
    return t;
}

static void define(cpp *c, const ctok *t)
{
    macro *m;
    if (t->bol || t->kind != CT_IDENT || name_is(t, "defined") ||
        situational(t) || !(m = cpp_alloc(c, sizeof *m))) {
        cpp_bail(c, "a #define it does not take");
        return;
    }
    m->name = t;
    const ctok *b = t->next;
    if (!b->bol && cpp_is(b, "(") && !b->space) {
        m->fn = 1;
        for (b = b->next; b->bol || !cpp_is(b, ")");) {
            if (b->bol || b->kind != CT_IDENT || m->n_params == MAX_PARAMS) {
                cpp_bail(c, "%.*s's parameters (... or more than %d)",
                         t->len, t->s, MAX_PARAMS);
                return;
            }
            m->params[m->n_params++] = b;
            b = b->next;
            if (cpp_is(b, ",") && !b->bol)
                b = b->next;
            else if (b->bol || !cpp_is(b, ")")) {
                cpp_bail(c, "%.*s's parameter list", t->len, t->s);
                return;
            }
        }
        b = b->next;
    }
    m->body = b;
    for (; !b->bol; b = b->next)
        if (cpp_is(b, "##") || cpp_is(b, "%:%:") || (m->fn && is_hash(b)) ||
            situational(b))
            cpp_bail(c, "# or ## in %.*s", t->len, t->s);
    m->next = c->macros;
    c->macros = m;
}

/* From a false group's first line: the #elif, #else or #endif that
 * ends it (nested groups skipped); EOF if none. */
static ctok *skip(ctok *t)
{
    int depth = 0;
    for (; t->kind != CT_EOF; t = t->next) {
        if (!t->bol || !is_hash(t) || t->next->bol)
            continue;
        const ctok *d = t->next;
        if (name_is(d, "if") || name_is(d, "ifdef") || name_is(d, "ifndef"))
            depth++;
        else if (name_is(d, "endif") && depth-- == 0)
            return t;
        else if (depth == 0 && (name_is(d, "elif") || name_is(d, "else") ||
                                name_is(d, "elifdef") || name_is(d, "elifndef")))
            return t;
    }
    return t;
}

/* A directive's line hashed as it is and expanded (whether the compiler
 * expands a #pragma's macros or not, a difference shows). */
static void hash_line(cpp *c, digest *d, const ctok *t)
{
    ctok head = {0}, *cur = &head;
    for (; !t->bol && cur; t = t->next)
        if (emit(c, d, t))
            cur = cur->next = made(c, t, NULL);
    if (cur && (cur->next = cpp_alloc(c, sizeof(ctok)))) {
        mix(d, CT_EOF, "", 0);
        for (ctok *x = cpp_expand_all(c, head.next); x && x->kind != CT_EOF;
             x = x->next)
            emit(c, d, x);
    }
}

typedef struct group {
    int taken, in_else;
} group;

/* The value of #ifdef / #ifndef name (not) into *v; 0 if it bailed. */
static int ifdef(cpp *c, const ctok *name, int not, int *v)
{
    if (name->bol || name->kind != CT_IDENT)
        return cpp_bail(c, "an #ifdef without a name");
    int def = cpp_defined(c, name);
    if (!def && cpp_reserved(name->s, name->len))
        return cpp_bail(c, "#ifdef %.*s, which the compiler may define",
                        name->len, name->s);
    *v = def != not;
    return 1;
}

/* Runs the directive at t (its "#"); the token to go on from. */
static ctok *directive(cpp *c, digest *d, ctok *t, group *g, int *n)
{
    ctok *dn = t->next, *arg = dn->next;
    int v = 0, top = *n > 0;
    if (dn->bol)
        return dn; /* the null directive */
    if (name_is(dn, "define")) {
        define(c, arg);
    } else if (name_is(dn, "undef")) {
        macro *m = cpp_alloc(c, sizeof *m);
        if (arg->bol || arg->kind != CT_IDENT || !m)
            return cpp_bail(c, "an #undef without a name"), arg;
        m->name = arg, m->gone = 1, m->next = c->macros;
        c->macros = m;
    } else if (name_is(dn, "if") || name_is(dn, "ifdef") || name_is(dn, "ifndef")) {
        int ok = name_is(dn, "if") ? cpp_if_value(c, arg, &v)
                                   : ifdef(c, arg, name_is(dn, "ifndef"), &v);
        if (!ok || *n == MAX_NEST)
            return cpp_bail(c, "#if nested over %d deep", MAX_NEST), arg;
        g[(*n)++] = (group){v, 0};
        return v ? next_line(arg) : skip(next_line(arg));
    } else if (name_is(dn, "elif")) {
        if (!top || g[*n - 1].in_else)
            return cpp_bail(c, "an #elif out of place"), arg;
        if (g[*n - 1].taken)
            return skip(next_line(arg));
        if (!cpp_if_value(c, arg, &v))
            return arg;
        g[*n - 1].taken = v;
        return v ? next_line(arg) : skip(next_line(arg));
    } else if (name_is(dn, "else")) {
        if (!top || g[*n - 1].in_else)
            return cpp_bail(c, "an #else out of place"), arg;
        g[*n - 1].in_else = 1;
        if (g[*n - 1].taken)
            return skip(next_line(arg));
        g[*n - 1].taken = 1;
    } else if (name_is(dn, "endif")) {
        if (!top)
            return cpp_bail(c, "an #endif out of place"), arg;
        --*n;
    } else if (name_is(dn, "pragma") || name_is(dn, "error") ||
               name_is(dn, "warning") || name_is(dn, "line")) {
        hash_line(c, d, dn);
    } else {
        cpp_bail(c, "#%.*s", dn->len, dn->s);
    }
    return next_line(arg);
}

int at_cpp_digest(const char *src, uint64_t out[2], char *why, size_t n)
{
    cpp c = {0};
    digest d = {AT_HASH_INIT, 0x6a09e667f3bcc909ULL};
    group g[MAX_NEST];
    int depth = 0;
    ctok *t = cpp_lex(&c, src);
    while (t && !c.bailed && t->kind != CT_EOF) {
        if (t->bol && is_hash(t)) {
            t = directive(&c, &d, t, g, &depth);
        } else if (!expand_one(&c, &t, t) && !c.bailed) {
            emit(&c, &d, t);
            t = t->next;
        }
    }
    if (!c.bailed && depth)
        cpp_bail(&c, "an #if without its #endif");
    int ok = !c.bailed && t;
    if (n)
        snprintf(why, n, "%s", ok ? "" : c.why[0] ? c.why : "out of memory");
    while (c.mem) {
        chunk *k = c.mem;
        c.mem = k->next;
        free(k);
    }
    out[0] = ok ? d.a : 0;
    out[1] = ok ? d.b : 0;
    return ok;
}
