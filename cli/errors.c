#include "errors.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "json.h"

static char last[2048];
static int last_code; /* AUTOTUNE_E*, 0 if the error was the command's */

void at_cli_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char raw[sizeof last];
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    size_t n = strlen(raw);
    if (n && raw[n - 1] == '\n')
        raw[n - 1] = '\0';
    /* One line whatever an argument, a file or a cache holds: control
     * characters escaped, never sent to a terminal raw. */
    at_text_printable(raw, last, sizeof last, 0);
    last_code = 0;
    fprintf(stderr, "autotune: %s\n", last);
}

void at_cli_fail_hint(const at_err *e, const char *hint)
{
    at_cli_say("%s%s\n", e->msg, hint);
    last_code = e->code;
}

void at_cli_fail(const at_err *e) { at_cli_fail_hint(e, ""); }

/* "AUTOTUNE_ECUDA" for a code. */
static const char *code_name(int code)
{
    switch (code) {
#define AT_NAME_(name, value, msg) case value: return "AUTOTUNE_E" #name;
        AUTOTUNE_ERRORS(AT_NAME_)
#undef AT_NAME_
    }
    return NULL;
}

void at_cli_error_json(int status)
{
    json_t *o = at_json_object("autotune.error/1");
    at_json_int(o, "status", status);
    at_json_str(o, "error", status == 2 ? "usage" : "failure");
    if (last_code) {
        at_json_int(o, "code", last_code);
        at_json_str(o, "code_name", code_name(last_code));
        at_json_str(o, "code_text", autotune_strerror(last_code));
    }
    at_json_str(o, "message", last[0] ? last : "failed");
    at_json_print(o);
}
