#include "text.h"

#include <stdio.h>
#include <string.h>

void at_text_printable(const char *in, char *out, size_t n,
                       int keep_newlines)
{
    size_t k = 0;
    if (!n)
        return;
    for (const unsigned char *c = (const unsigned char *)in; *c; ++c) {
        unsigned char b = *c;
        char esc[8] = "";
        if (b == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f) {
            snprintf(esc, sizeof esc, "\\x%02x", c[1]); /* C1, as UTF-8 */
            ++c;
        } else if ((b < 0x20 || b == 0x7f) &&
                   !(keep_newlines && (b == '\n' || b == '\t'))) {
            if (b == '\n' || b == '\t' || b == '\r')
                snprintf(esc, sizeof esc, "\\%c",
                         b == '\n' ? 'n' : b == '\t' ? 't' : 'r');
            else
                snprintf(esc, sizeof esc, "\\x%02x", b);
        } else {
            esc[0] = (char)b;
        }
        size_t m = strlen(esc);
        if (k + m + 1 > n)
            break; /* an escape is never cut in half */
        memcpy(out + k, esc, m);
        k += m;
    }
    out[k] = '\0';
}

int at_text_is_ascii(const char *s)
{
    for (; *s; ++s)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
            return 0;
    return 1;
}
