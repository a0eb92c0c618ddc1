/* libFuzzer: a cache file's bytes (the SQLite file, its tables and rows),
 * opened and read as the planner would: refused, or read with bad rows
 * discarded, never trusted blindly and never a crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/store/store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char dir[64], path[96];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/fuzz-cache-%d", (int)getpid());
        mkdir(dir, 0700);
        snprintf(path, sizeof path, "%s/c.db", dir);
    }
    char side[128];
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    chmod(path, 0600);
    at_cache *c = NULL;
    at_err e = {0};
    if (at_cache_open(&c, path, &e) == 0) {
        at_key k;
        memset(&k, 0, sizeof k);
        snprintf(k.gpu, sizeof k.gpu, "NVIDIA H100 80GB HBM3");
        k.cc = 90;
        snprintf(k.family, sizeof k.family, "transpose");
        snprintf(k.type, sizeof k.type, "f32");
        at_entry en;
        if (at_cache_find_arch(c, &k, &en, &e) == 1)
            at_entry_free(&en);
        if (at_cache_get(c, &k, &en, &e) == 1)
            at_entry_free(&en);
        at_failed *fl = NULL;
        size_t n = 0;
        at_cache_failed_list(c, &k, &fl, &n, &e);
        free(fl);
        at_cache_close(c);
    }
    return 0;
}
