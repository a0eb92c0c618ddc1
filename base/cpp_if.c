/* An #if's value (base/cpp_impl.h): defined() first, then macros
 * expanded, then C's integer expression in 64 bits. Whatever the
 * compiler might see otherwise (a reserved name it predefines, an
 * unsigned or floating constant, a character constant) stops the
 * digest. */
#include <stdlib.h>
#include <string.h>

#include "base/cpp_impl.h"

typedef struct ev {
    cpp *c;
    const ctok *t;
    int depth;
} ev;

static ctok *copy(cpp *c, const ctok *t)
{
    ctok *n = cpp_alloc(c, sizeof *n);
    if (n) {
        *n = *t;
        n->next = NULL;
        n->bol = 0;
    }
    return n;
}

static ctok *number(cpp *c, int v)
{
    ctok *n = cpp_alloc(c, sizeof *n);
    if (n)
        n->kind = CT_NUM, n->s = v ? "1" : "0", n->len = 1;
    return n;
}

/* The line from t with each defined X / defined(X) replaced. */
static ctok *resolve_defined(cpp *c, const ctok *t)
{
    ctok head = {0}, *cur = &head;
    for (; !t->bol && !c->bailed; t = t->next) {
        ctok *n;
        if (t->kind == CT_IDENT && t->len == 7 && !memcmp(t->s, "defined", 7)) {
            int paren = cpp_is(t->next, "(");
            const ctok *name = paren ? t->next->next : t->next;
            if (name->bol || name->kind != CT_IDENT ||
                (paren && (name->next->bol || !cpp_is(name->next, ")"))))
                return cpp_bail(c, "a malformed defined in #if"), NULL;
            if (!cpp_defined(c, name) && cpp_reserved(name->s, name->len))
                return cpp_bail(c, "#if asks about %.*s, which the compiler "
                                "may define", name->len, name->s), NULL;
            n = number(c, cpp_defined(c, name));
            t = paren ? name->next : name;
        } else {
            n = copy(c, t);
        }
        if (!n)
            return NULL;
        cur = cur->next = n;
    }
    if (!(cur->next = cpp_alloc(c, sizeof(ctok))))
        return NULL;
    return head.next;
}

static int64_t fail(ev *x, const char *what)
{
    cpp_bail(x->c, "#if: %s", what);
    return 0;
}

/* A constant: decimal, octal, hex or binary, l/ll suffixes only. */
static int64_t constant(ev *x, const ctok *t)
{
    char buf[64];
    if (t->len >= (int)sizeof buf)
        return fail(x, "a long constant");
    memcpy(buf, t->s, (size_t)t->len);
    buf[t->len] = '\0';
    int base = 10;
    const char *d = buf;
    if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
        base = 16, d += 2;
    else if (buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B'))
        base = 2, d += 2;
    else if (buf[0] == '0')
        base = 8;
    char *end;
    unsigned long long v = strtoull(d, &end, base);
    if (end == d && base != 8)
        return fail(x, "a malformed constant");
    if (strcmp(end, "") && strcmp(end, "l") && strcmp(end, "L") &&
        strcmp(end, "ll") && strcmp(end, "LL"))
        return fail(x, "an unsigned or floating constant");
    if (v > INT64_MAX)
        return fail(x, "a constant over 64 bits");
    return (int64_t)v;
}

static int64_t cond(ev *x, int on);

static int64_t primary(ev *x, int on)
{
    const ctok *t = x->t;
    if (t->kind == CT_EOF)
        return fail(x, "an operand missing");
    if (++x->depth > 200)
        return fail(x, "nested too deep");
    x->t = t->next;
    int64_t v = 0;
    if (cpp_is(t, "(")) {
        v = cond(x, on);
        if (!cpp_is(x->t, ")"))
            return fail(x, "a missing )");
        x->t = x->t->next;
    } else if (cpp_is(t, "-") || cpp_is(t, "+") || cpp_is(t, "!") ||
               cpp_is(t, "~")) {
        int64_t a = primary(x, on);
        uint64_t u = (uint64_t)a;
        v = cpp_is(t, "-") ? (int64_t)(0 - u) : cpp_is(t, "+") ? a
            : cpp_is(t, "!") ? !a : (int64_t)~u;
    } else if (t->kind == CT_NUM) {
        v = constant(x, t);
    } else if (t->kind == CT_IDENT) {
        if (cpp_reserved(t->s, t->len) ||
            (t->len == 7 && !memcmp(t->s, "defined", 7)))
            return fail(x, "a name the compiler may define");
        v = t->len == 4 && !memcmp(t->s, "true", 4);
    } else {
        return fail(x, "a token it does not take");
    }
    x->depth--;
    return v;
}

/* Binary operators by precedence, lowest first. */
static const char *const LEVELS[][4] = {
    {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="},
    {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
};
enum { N_LEVELS = sizeof LEVELS / sizeof *LEVELS };

static int64_t apply(ev *x, const char *op, int64_t a, int64_t b, int on)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    switch (op[0]) {
    case '|': return op[1] ? (a || b) : (int64_t)(ua | ub);
    case '&': return op[1] ? (a && b) : (int64_t)(ua & ub);
    case '^': return (int64_t)(ua ^ ub);
    case '=': return a == b;
    case '!': return a != b;
    case '+': return (int64_t)(ua + ub);
    case '-': return (int64_t)(ua - ub);
    case '*': return (int64_t)(ua * ub);
    case '<':
    case '>':
        if (op[1] == op[0]) {
            if (b < 0 || b > 62 || (op[0] == '<' && a < 0))
                return on ? fail(x, "a shift out of range") : 0;
            return op[0] == '<' ? (int64_t)(ua << b) : a >> b;
        }
        return op[0] == '<' ? (op[1] ? a <= b : a < b)
                            : (op[1] ? a >= b : a > b);
    default: /* / and % */
        if (b == 0 || (a == INT64_MIN && b == -1))
            return on ? fail(x, "a division by zero") : 0;
        return op[0] == '/' ? a / b : a % b;
    }
}

static int64_t binary(ev *x, int level, int on)
{
    if (level == N_LEVELS)
        return primary(x, on);
    int64_t a = binary(x, level + 1, on);
    for (;;) {
        const char *op = NULL;
        for (int i = 0; i < 4 && LEVELS[level][i]; ++i)
            if (cpp_is(x->t, LEVELS[level][i]))
                op = LEVELS[level][i];
        if (!op || x->c->bailed)
            return a;
        x->t = x->t->next;
        /* || and && do not evaluate what they skip */
        int rhs_on = on && !(!strcmp(op, "||") && a) &&
                     !(!strcmp(op, "&&") && !a);
        int64_t b = binary(x, level + 1, rhs_on);
        a = apply(x, op, a, b, rhs_on);
    }
}

static int64_t cond(ev *x, int on)
{
    int64_t a = binary(x, 0, on);
    if (!cpp_is(x->t, "?") || x->c->bailed)
        return a;
    x->t = x->t->next;
    int64_t b = cond(x, on && a);
    if (!cpp_is(x->t, ":"))
        return fail(x, "a ? without :");
    x->t = x->t->next;
    int64_t d = cond(x, on && !a);
    return a ? b : d;
}

int cpp_if_value(cpp *c, const ctok *t, int *v)
{
    ctok *line = resolve_defined(c, t);
    if (line)
        line = cpp_expand_all(c, line);
    if (!line)
        return 0;
    ev x = {c, line, 0};
    if (line->kind == CT_EOF)
        return cpp_bail(c, "#if: no expression");
    int64_t r = cond(&x, 1);
    if (!c->bailed && x.t->kind != CT_EOF)
        fail(&x, "text after the expression");
    *v = r != 0;
    return !c->bailed;
}
