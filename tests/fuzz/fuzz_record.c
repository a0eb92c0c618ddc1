/* libFuzzer: a record CSV, as `autotune replay` reads it. */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "search/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/fuzz-record-%d.csv", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    at_record r;
    at_err e = {0};
    if (at_record_load(path, &r, &e) == 0)
        at_record_free(&r);
    return 0;
}
