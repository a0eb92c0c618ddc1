/* Running the command line from a test (test_cli.c, test_wisdom.c): in a
 * directory of its own, with the environment the test gives, its exit
 * status and output captured; the directory removed after. */
#ifndef AT_TEST_CLI_RUN_H
#define AT_TEST_CLI_RUN_H

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

/* The whole of f from its start, NUL-terminated; NULL on no memory. */
static inline char *at_slurp(FILE *f)
{
    size_t n = 0, cap = 4096;
    char *s = malloc(cap);
    rewind(f);
    for (size_t k; s && (k = fread(s + n, 1, cap - n - 1, f)) > 0;) {
        n += k;
        if (cap - n == 1) {
            char *t = realloc(s, cap *= 2);
            if (!t)
                free(s);
            s = t;
        }
    }
    if (s)
        s[n] = '\0';
    return s;
}

static inline int at_rm_entry_(const char *path, const struct stat *st,
                               int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* Removes dir and all in it: depth first, not following links. */
static inline int at_rm_tree(const char *dir)
{
    return nftw(dir, at_rm_entry_, 16, FTW_DEPTH | FTW_PHYS);
}

/* Runs bin with argv and env (NULL-ended) in dir: *status its exit
 * status (128 + the signal if one ended it), *out and *err what it
 * wrote (malloc'd). */
static inline void at_run_captured(const char *bin, char *const *argv,
                                   char *const *env, const char *dir,
                                   int *status, char **out, char **err)
{
    FILE *o = tmpfile(), *e = tmpfile();
    assert_non_null(o);
    assert_non_null(e);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (dup2(fileno(o), 1) < 0 || dup2(fileno(e), 2) < 0 ||
            chdir(dir) != 0)
            _exit(126);
        execve(bin, argv, env);
        _exit(127);
    }
    int ws;
    while (waitpid(pid, &ws, 0) < 0)
        assert_int_equal(errno, EINTR);
    *status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    *out = at_slurp(o);
    *err = at_slurp(e);
    fclose(o);
    fclose(e);
    assert_non_null(*out);
    assert_non_null(*err);
}

#endif
