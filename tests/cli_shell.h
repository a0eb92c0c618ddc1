/* The command line run through the shell from a test (test_hostile*.c):
 * a line of arguments as a user types it, in the test's folder, with
 * the cache there and no CUDA driver; its exit status, and its stdout
 * and stderr together. */
#ifndef AT_TEST_CLI_SHELL_H
#define AT_TEST_CLI_SHELL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tap.h"

/* Runs "$bin_env ARGS" in dir (AUTOTUNE_CACHE=dir/c.db, no driver); out
 * gets what it printed (cap bytes, terminated). Its exit status, 128 if
 * a signal ended it. */
static inline int at_cli_shell(const char *dir, const char *bin_env,
                               const char *args, char *out, size_t cap)
{
    const char *bin = getenv(bin_env);
    if (!bin)
        fail_msg("%s is not set (run through make check)", bin_env);
    size_t n = strlen(args) + 3 * strlen(dir) + strlen(bin) + 256;
    char *cmd = malloc(n);
    snprintf(cmd, n, "cd %s && AUTOTUNE_CACHE=%s/c.db "
             "AUTOTUNE_LIBCUDA=/nonexistent/libcuda.so.1 %s %s >%s/out 2>&1",
             dir, dir, bin, args, dir);
    int st = system(cmd);
    free(cmd);
    char path[512];
    snprintf(path, sizeof path, "%s/out", dir);
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(out, 1, cap - 1, f) : 0;
    out[got] = '\0';
    if (f)
        fclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Runs a shell line in dir as it is (its own redirections), with
 * AUTOTUNE_CACHE=dir/c.db and no driver exported, and $A the release
 * command; its exit status. */
static inline int at_shell_in(const char *dir, const char *line)
{
    const char *bin = getenv("AUTOTUNE_REL");
    if (!bin)
        fail_msg("AUTOTUNE_REL is not set (run through make check)");
    size_t n = strlen(line) + 2 * strlen(dir) + strlen(bin) + 256;
    char *cmd = malloc(n);
    snprintf(cmd, n, "cd %s && export AUTOTUNE_CACHE=%s/c.db "
             "AUTOTUNE_LIBCUDA=/nonexistent/libcuda.so.1 A=%s && { %s; }",
             dir, dir, bin, line);
    int st = system(cmd);
    free(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* dir/name's bytes into buf (cap, terminated); how many. */
static inline size_t at_read_in(const char *dir, const char *name,
                                char *buf, size_t cap)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
    return n;
}

#endif
