/* libFuzzer: the command line's option and problem parsing. The input is
 * split at NUL bytes into argv. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { MAX_ARGS = 32 };
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    char *argv[MAX_ARGS + 1] = {"autotune"};
    int argc = 1;
    for (size_t i = 0; i <= size && argc < MAX_ARGS; ++argc) {
        argv[argc] = buf + i;
        i += strlen(buf + i) + 1;
    }
    argv[argc] = NULL;
    opts o;
    if (at_opts_parse(argc, argv, &o) == 0) {
        at_problem p;
        at_opts_problem(&o, &p);
    }
    free(buf);
    return 0;
}
