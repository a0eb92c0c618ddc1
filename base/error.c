#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *autotune_strerror(int code)
{
    switch (code) {
#define AT_CASE_(name, value, msg) case value: return msg;
        AUTOTUNE_ERRORS(AT_CASE_)
#undef AT_CASE_
    }
    return "unknown error code";
}

int at_fail(at_err *e, int code, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
        e->code = code;
    }
    return code;
}

void at_err_prefix(at_err *e, const char *fmt, ...)
{
    if (!e)
        return;
    char head[256], old[sizeof e->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    memcpy(old, e->msg, sizeof old);
    snprintf(e->msg, sizeof e->msg, "%s%s", head, old);
}

void at_err_clear(at_err *e)
{
    if (e) {
        e->code = 0;
        e->msg[0] = '\0';
    }
}
