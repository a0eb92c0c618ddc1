/* Inside the preprocessor's digest (base/cpp.h): tokens, hide sets and
 * the arena they live in. cpp_lex.c makes tokens, cpp_if.c evaluates an
 * #if, cpp.c runs the directives and expands macros. */
#ifndef AT_CPP_IMPL_H
#define AT_CPP_IMPL_H

#include <stddef.h>
#include <stdint.h>

enum { CT_EOF, CT_IDENT, CT_NUM, CT_STR, CT_CHAR, CT_PUNCT };

/* A hide set: the macros a token came out of (C11 6.10.3.4), as names. */
typedef struct hset {
    const char *name;
    int len;
    const struct hset *next;
} hset;

typedef struct ctok {
    int kind;
    const char *s;
    int len;
    int bol;   /* first of its line in the source (never one made by
                * an expansion: those are never directives) */
    int space; /* white space before it */
    const hset *hs;
    struct ctok *next;
} ctok;

typedef struct chunk chunk;

/* What one digest allocates, freed at once; bail says why it stopped. */
typedef struct cpp {
    chunk *mem;
    int bailed;
    char why[160];
    long steps;  /* expansions so far: a bound on hostile macros */
    long tokens; /* tokens they made */
    struct macro *macros;
} cpp;

void *cpp_alloc(cpp *c, size_t n); /* zeroed; NULL (bailed) if no memory */
/* Stops the digest (the first reason is kept); returns 0. */
int cpp_bail(cpp *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The tokens of src, EOF-terminated; NULL if it bailed. */
ctok *cpp_lex(cpp *c, const char *src);
int cpp_is(const ctok *t, const char *punct);
/* 1 if [s, s+n) names a macro the compiler defines itself (reserved:
 * "__x" or "_X"): its value is not known here. */
int cpp_reserved(const char *s, int n);

/* #if's value of the tokens from t up to the next line's, macros
 * expanded: 1 or 0 into *v; 0 returned if it bailed. */
int cpp_if_value(cpp *c, const ctok *t, int *v);
/* Expands the macros of list (EOF-terminated), directives not read. */
ctok *cpp_expand_all(cpp *c, ctok *list);
/* Whether the identifier t names a macro (for defined). */
int cpp_defined(cpp *c, const ctok *t);

#endif
