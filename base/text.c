#include "text.h"

void at_text_printable(const char *in, char *out, size_t n,
                       int keep_newlines)
{
    size_t k = 0;
    if (!n)
        return;
    for (const unsigned char *c = (const unsigned char *)in; *c && k + 1 < n;
         ++c) {
        unsigned char b = *c;
        if (b == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f) {
            out[k++] = '?'; /* a C1 control, two bytes in UTF-8 */
            ++c;
        } else if ((b < 0x20 || b == 0x7f) &&
                   !(keep_newlines && (b == '\n' || b == '\t'))) {
            out[k++] = '?';
        } else {
            out[k++] = (char)b;
        }
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
