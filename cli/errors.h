/* The command's errors: each is one line on stderr ("autotune: ..."), and
 * the last is remembered, so that with --json the command also answers on
 * stdout with an object (autotune.error/1) giving the exit status, the
 * library's error code where there is one, and the message. */
#ifndef AT_ERRORS_H
#define AT_ERRORS_H

#include "base/error.h"

/* Prints "autotune: " and the message on stderr, and remembers it. */
void at_cli_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for a library error: its message, and its code. */
void at_cli_fail(const at_err *e);
/* A library error with a hint after its message ("" for none). */
void at_cli_fail_hint(const at_err *e, const char *hint);
/* With --json: the remembered error as an object on stdout. */
void at_cli_error_json(int status);

#endif
