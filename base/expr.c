/* Integer expressions: a recursive-descent parser into a node array, a
 * recursive evaluator with checked arithmetic (base/expr.h). */
#include "base/expr.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op {
    NUM, SLOT, NEG, NOT, ADD, SUB, MUL, DIV, MOD,
    LT, LE, GT, GE, EQ, NE, AND, OR, MIN, MAX
};

typedef struct node {
    enum op op;
    int a, b;  /* operands (node indices) */
    int64_t v; /* NUM: the value; SLOT: the slot */
    int col;   /* 1-based column of the operator or operand */
} node;

struct at_expr {
    char *text;
    node *nodes;
    int n, root;
};

typedef struct parser {
    const char *s;
    size_t i;
    int depth;
    at_expr *x;
    int cap;
    at_expr_names names;
    void *ctx;
    at_err *e;
} parser;

static int fail(parser *p, size_t at, const char *what)
{
    return at_fail(p->e, AUTOTUNE_EINVALID, "%s at column %zu of '%s'", what,
                   at + 1, p->s);
}

static void skip(parser *p)
{
    while (isspace((unsigned char)p->s[p->i]))
        ++p->i;
}

/* Appends a node; its index, or AUTOTUNE_ENOMEM. */
static int add(parser *p, enum op op, int a, int b, int64_t v, size_t col)
{
    if (p->x->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 16;
        node *nn = realloc(p->x->nodes, (size_t)cap * sizeof *nn);
        if (!nn)
            return at_fail(p->e, AUTOTUNE_ENOMEM, "expression: out of "
                           "memory");
        p->x->nodes = nn;
        p->cap = cap;
    }
    p->x->nodes[p->x->n] = (node){op, a, b, v, (int)col + 1};
    return p->x->n++;
}

/* The operator at p->i among ops (longest first), or -1. */
static int match(parser *p, const char *const *ops, const enum op *codes,
                 int k, enum op *op)
{
    skip(p);
    for (int j = 0; j < k; ++j) {
        size_t len = strlen(ops[j]);
        if (strncmp(p->s + p->i, ops[j], len) == 0) {
            *op = codes[j];
            p->i += len;
            return (int)(p->i - len);
        }
    }
    return -1;
}

static int parse_or(parser *p);

static int parse_number(parser *p)
{
    size_t at = p->i;
    int64_t v = 0;
    while (isdigit((unsigned char)p->s[p->i])) {
        if (__builtin_mul_overflow(v, 10, &v) ||
            __builtin_add_overflow(v, p->s[p->i] - '0', &v))
            return fail(p, at, "number too large");
        ++p->i;
    }
    if (isalpha((unsigned char)p->s[p->i]) || p->s[p->i] == '_')
        return fail(p, p->i, "letter after a number");
    return add(p, NUM, -1, -1, v, at);
}

/* min(a, b) or max(a, b), the name read. */
static int parse_call(parser *p, enum op op, size_t at)
{
    ++p->i; /* ( */
    int a = parse_or(p);
    if (a < 0)
        return a;
    skip(p);
    if (p->s[p->i] != ',')
        return fail(p, p->i, op == MIN
                                 ? "min takes two arguments: expected ','"
                                 : "max takes two arguments: expected ','");
    ++p->i;
    int b = parse_or(p);
    if (b < 0)
        return b;
    skip(p);
    if (p->s[p->i] != ')')
        return fail(p, p->i, "expected ')' after the second argument");
    ++p->i;
    return add(p, op, a, b, 0, at);
}

static int parse_name(parser *p)
{
    size_t at = p->i;
    while (isalnum((unsigned char)p->s[p->i]) || p->s[p->i] == '_')
        ++p->i;
    size_t len = p->i - at;
    skip(p);
    if (p->s[p->i] == '(') {
        if (len == 3 && !strncmp(p->s + at, "min", 3))
            return parse_call(p, MIN, at);
        if (len == 3 && !strncmp(p->s + at, "max", 3))
            return parse_call(p, MAX, at);
        char what[96];
        snprintf(what, sizeof what, "unknown function '%.*s' (min and max "
                 "are)", (int)(len > 48 ? 48 : len), p->s + at);
        return fail(p, at, what);
    }
    int slot = p->names ? p->names(p->ctx, p->s + at, len) : -1;
    if (slot < 0) {
        char what[96];
        snprintf(what, sizeof what, "unknown name '%.*s'",
                 (int)(len > 64 ? 64 : len), p->s + at);
        return fail(p, at, what);
    }
    return add(p, SLOT, -1, -1, slot, at);
}

static int parse_unary(parser *p)
{
    skip(p);
    size_t at = p->i;
    char c = p->s[at];
    if (++p->depth > AT_EXPR_MAX_DEPTH)
        return fail(p, at, "nested too deeply");
    int r;
    if (c == '-' || c == '!' || c == '+') {
        ++p->i;
        int a = parse_unary(p);
        r = a < 0 || c == '+' ? a : add(p, c == '-' ? NEG : NOT, a, -1, 0, at);
    } else if (c == '(') {
        ++p->i;
        r = parse_or(p);
        skip(p);
        if (r >= 0 && p->s[p->i] != ')')
            r = fail(p, p->i, "expected ')'");
        else if (r >= 0)
            ++p->i;
    } else if (isdigit((unsigned char)c)) {
        r = parse_number(p);
    } else if (isalpha((unsigned char)c) || c == '_') {
        r = parse_name(p);
    } else {
        r = fail(p, at, c ? "expected a number, a name or '('"
                          : "expected an operand, found the end");
    }
    --p->depth;
    return r;
}

/* One level of left-associative binary operators over next. */
static int parse_level(parser *p, int (*next)(parser *),
                       const char *const *ops, const enum op *codes, int k)
{
    int a = next(p);
    enum op op;
    int at;
    while (a >= 0 && (at = match(p, ops, codes, k, &op)) >= 0) {
        int b = next(p);
        if (b < 0)
            return b;
        a = add(p, op, a, b, 0, (size_t)at);
    }
    return a;
}

static int parse_mul(parser *p)
{
    static const char *const ops[] = {"*", "/", "%"};
    static const enum op codes[] = {MUL, DIV, MOD};
    return parse_level(p, parse_unary, ops, codes, 3);
}

static int parse_add(parser *p)
{
    static const char *const ops[] = {"+", "-"};
    static const enum op codes[] = {ADD, SUB};
    return parse_level(p, parse_mul, ops, codes, 2);
}

static int parse_rel(parser *p)
{
    static const char *const ops[] = {"<=", ">=", "<", ">"};
    static const enum op codes[] = {LE, GE, LT, GT};
    return parse_level(p, parse_add, ops, codes, 4);
}

static int parse_eq(parser *p)
{
    static const char *const ops[] = {"==", "!="};
    static const enum op codes[] = {EQ, NE};
    return parse_level(p, parse_rel, ops, codes, 2);
}

static int parse_and(parser *p)
{
    static const char *const ops[] = {"&&"};
    static const enum op codes[] = {AND};
    return parse_level(p, parse_eq, ops, codes, 1);
}

static int parse_or(parser *p)
{
    static const char *const ops[] = {"||"};
    static const enum op codes[] = {OR};
    return parse_level(p, parse_and, ops, codes, 1);
}

int at_expr_parse(const char *text, at_expr_names names, void *ctx,
                  at_expr **out, at_err *e)
{
    *out = NULL;
    size_t len = strlen(text);
    if (len > AT_EXPR_MAX_TEXT)
        return at_fail(e, AUTOTUNE_EINVALID, "expression of %zu characters "
                       "(at most %d)", len, AT_EXPR_MAX_TEXT);
    at_expr *x = calloc(1, sizeof *x);
    if (!x || !(x->text = strdup(text))) {
        free(x);
        return at_fail(e, AUTOTUNE_ENOMEM, "expression: out of memory");
    }
    parser p = {x->text, 0, 0, x, 0, names, ctx, e};
    x->root = parse_or(&p);
    skip(&p);
    if (x->root >= 0 && p.s[p.i])
        x->root = fail(&p, p.i, "unexpected text after the expression");
    if (x->root < 0) {
        int rc = x->root;
        at_expr_free(x);
        return rc;
    }
    *out = x;
    return 0;
}

static int eval_fail(const at_expr *x, const node *n, const char *what,
                     at_err *e)
{
    return at_fail(e, AUTOTUNE_ERANGE, "%s at column %d of '%s'", what,
                   n->col, x->text);
}

static int eval(const at_expr *x, int i, const int64_t *slots, int64_t *r,
                at_err *e)
{
    const node *n = &x->nodes[i];
    int64_t a, b;
    int rc;
    switch (n->op) {
    case NUM: *r = n->v; return 0;
    case SLOT: *r = slots[n->v]; return 0;
    default: break;
    }
    if ((rc = eval(x, n->a, slots, &a, e)))
        return rc;
    switch (n->op) {
    case NEG:
        return __builtin_sub_overflow((int64_t)0, a, r)
                   ? eval_fail(x, n, "overflow in '-'", e) : 0;
    case NOT: *r = !a; return 0;
    case AND: if (!a) { *r = 0; return 0; } break;
    case OR: if (a) { *r = 1; return 0; } break;
    default: break;
    }
    if ((rc = eval(x, n->b, slots, &b, e)))
        return rc;
    switch (n->op) {
    case ADD: if (__builtin_add_overflow(a, b, r)) break; return 0;
    case SUB: if (__builtin_sub_overflow(a, b, r)) break; return 0;
    case MUL: if (__builtin_mul_overflow(a, b, r)) break; return 0;
    case DIV:
    case MOD:
        if (b == 0)
            return eval_fail(x, n, n->op == DIV ? "division by zero"
                                                : "remainder by zero", e);
        if (a == INT64_MIN && b == -1)
            break;
        *r = n->op == DIV ? a / b : a % b;
        return 0;
    case LT: *r = a < b; return 0;
    case LE: *r = a <= b; return 0;
    case GT: *r = a > b; return 0;
    case GE: *r = a >= b; return 0;
    case EQ: *r = a == b; return 0;
    case NE: *r = a != b; return 0;
    case AND:
    case OR: *r = b != 0; return 0;
    case MIN: *r = a < b ? a : b; return 0;
    case MAX: *r = a > b ? a : b; return 0;
    default: break;
    }
    static const char sym[][4] = {[ADD] = "+", [SUB] = "-", [MUL] = "*",
                                  [DIV] = "/", [MOD] = "%"};
    char what[32];
    snprintf(what, sizeof what, "overflow in '%s'", sym[n->op]);
    return eval_fail(x, n, what, e);
}

int at_expr_eval(const at_expr *x, const int64_t *slots, int64_t *out,
                 at_err *e)
{
    return eval(x, x->root, slots, out, e);
}

size_t at_expr_slots(const at_expr *x, int *used, size_t n)
{
    size_t k = 0;
    for (int i = 0; i < x->n; ++i) {
        if (x->nodes[i].op != SLOT)
            continue;
        int s = (int)x->nodes[i].v, seen = 0;
        for (int j = 0; j < i && !seen; ++j)
            seen = x->nodes[j].op == SLOT && x->nodes[j].v == s;
        if (seen)
            continue;
        if (k < n)
            used[k] = s;
        ++k;
    }
    return k;
}

typedef struct cbuf {
    char *s;
    size_t n, len;
    const char *(*name)(void *, int);
    void *ctx;
} cbuf;

static void cput(cbuf *b, const char *t)
{
    size_t k = strlen(t);
    if (b->len < b->n)
        snprintf(b->s + b->len, b->n - b->len, "%s", t);
    b->len += k;
}

static void to_c(const at_expr *x, int i, cbuf *b)
{
    static const char *const sym[] = {
        [ADD] = " + ", [SUB] = " - ", [MUL] = " * ", [DIV] = " / ",
        [MOD] = " % ", [LT] = " < ", [LE] = " <= ", [GT] = " > ",
        [GE] = " >= ", [EQ] = " == ", [NE] = " != ", [AND] = " && ",
        [OR] = " || ", [MIN] = ", ", [MAX] = ", "};
    const node *n = &x->nodes[i];
    char num[32];
    switch (n->op) {
    case NUM:
        snprintf(num, sizeof num, "%lldLL", (long long)n->v);
        cput(b, num);
        return;
    case SLOT:
        cput(b, "((long long)");
        cput(b, b->name(b->ctx, (int)n->v));
        cput(b, ")");
        return;
    case NEG:
    case NOT:
        cput(b, n->op == NEG ? "(-" : "(!");
        to_c(x, n->a, b);
        cput(b, ")");
        return;
    case MIN:
    case MAX: cput(b, n->op == MIN ? "at_min_(" : "at_max_("); break;
    default: cput(b, "("); break;
    }
    to_c(x, n->a, b);
    cput(b, sym[n->op]);
    to_c(x, n->b, b);
    cput(b, ")");
}

size_t at_expr_c(const at_expr *x, const char *(*name)(void *, int),
                 void *ctx, char *buf, size_t n)
{
    cbuf b = {buf, n, 0, name, ctx};
    if (n)
        buf[0] = '\0';
    to_c(x, x->root, &b);
    return b.len;
}

const char *at_expr_text(const at_expr *x)
{
    return x->text;
}

void at_expr_free(at_expr *x)
{
    if (!x)
        return;
    free(x->text);
    free(x->nodes);
    free(x);
}
