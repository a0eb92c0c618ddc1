/* Text from outside (a cache row, a path, the command line) on its way to
 * a terminal or into generated code: control characters never reach a
 * terminal raw, and only printable ASCII is accepted where a cache row
 * names things. */
#ifndef AT_TEXT_H
#define AT_TEXT_H

#include <stddef.h>

/* Copies in to out (n bytes, always terminated), each control character
 * (below 0x20, 0x7f, and the C1 controls as UTF-8, U+0080..U+009F) shown
 * escaped: \n, \t, \r, else \xNN. keep_newlines: '\n' and '\t' pass. */
void at_text_printable(const char *in, char *out, size_t n,
                       int keep_newlines);
/* 1 if every byte is printable ASCII (0x20..0x7e). */
int at_text_is_ascii(const char *s);

#endif
