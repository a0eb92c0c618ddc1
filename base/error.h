/* Internal error record: a code from autotune.h and one line of text that
 * names the call, its code and the variant. Functions return the code. */
#ifndef AT_ERROR_H
#define AT_ERROR_H

#include "autotune.h"

typedef struct at_err {
    int code;
    char msg[1024];
} at_err;

/* Sets e (if not NULL) and returns code. printf-style message. */
int at_fail(at_err *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Prefixes the existing message with context ("tuning f32 8192x8192: "). */
void at_err_prefix(at_err *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void at_err_clear(at_err *e);

#endif
