/* Integer expressions over named values, for the restrictions, launch
 * geometry, sizes and metrics of a spec file (issue 15): 64-bit signed
 * arithmetic + - * / % (C's truncating division), comparisons and
 * ! && || giving 1 or 0 (the last two short-circuit), unary - and +,
 * parentheses, min(a, b) and max(a, b), decimal literals, and names
 * ([A-Za-z_][A-Za-z0-9_]*). Names are resolved once, when the text is
 * parsed, to slots the caller fills before each evaluation; a name the
 * caller does not know is an error that names it. Overflow and a zero
 * divisor are errors at evaluation, naming the operator and where it is.
 * Floating point (libmatheval, muparser) would round sizes silently. */
#ifndef AT_EXPR_H
#define AT_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* Longest text and deepest nesting accepted (a spec's expressions are a
 * line; the limits keep a hostile one from exhausting the stack). */
enum { AT_EXPR_MAX_TEXT = 4096, AT_EXPR_MAX_DEPTH = 64 };

typedef struct at_expr at_expr;

/* The slot of the name [s, s + n), or -1 if the caller knows no such
 * name. */
typedef int (*at_expr_names)(void *ctx, const char *s, size_t n);

/* Parses text into *out (free with at_expr_free). Errors (AUTOTUNE_EINVALID)
 * quote the text and the column: "unknown name 'tile' at column 31 of
 * 'block_size_x == tile * 2'". */
int at_expr_parse(const char *text, at_expr_names names, void *ctx,
                  at_expr **out, at_err *e);
/* Evaluates x with slot i holding slots[i]; AUTOTUNE_ERANGE on overflow
 * or a zero divisor. */
int at_expr_eval(const at_expr *x, const int64_t *slots, int64_t *out,
                 at_err *e);
/* The slots x reads, in order of first use, into used[0..n); returns how
 * many there are (more than n: only n written). */
size_t at_expr_slots(const at_expr *x, int *used, size_t n);
/* x as C with every operation parenthesised, for emitted host code and
 * the spec's canonical text: literals as long long, each slot as name(ctx,
 * slot) gives it, min and max as at_min_(a, b) and at_max_(a, b). Returns
 * the length it needed (as snprintf; the text is cut past n). */
size_t at_expr_c(const at_expr *x, const char *(*name)(void *, int),
                 void *ctx, char *buf, size_t n);
/* The text x was parsed from. */
const char *at_expr_text(const at_expr *x);
void at_expr_free(at_expr *x);

#endif
