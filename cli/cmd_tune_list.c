/* `autotune tune-list FILE [--devices all|N,N,...]`: every problem of a
 * list tuned and stored, on every GPU asked for at once
 * (runtime/plan/plan.h's at_plan_list); with a PostgreSQL store, shared
 * with every host that runs the same list (docs/SCALE.md). The file holds
 * a problem a line, written as the command line would (`transpose --type
 * f32 --size 8192x8192`, `reduce --op max --size 4096x4096`, `kernel
 * vector_add.yaml --size 1048576`); '#' starts a comment. What applies to
 * the whole list (--jobs, --seed, --effort, ...) is given to tune-list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/readfile.h"
#include "base/text.h"
#include "commands.h"
#include "errors.h"
#include "flags.h"
#include "runtime/plan/plan.h"
#include "runtime/store/store.h"

enum { MAX_WORDS = 64 };

/* A generic flag on a line that is not the problem's: said, 2. */
static int whole_list_flag(const char *w, const char *where)
{
    for (const at_flag *fl = at_flags; fl->flag; ++fl)
        if (strcmp(w, fl->flag) == 0 && strcmp(w, "--type") != 0 &&
            strcmp(w, "--size") != 0) {
            at_cli_say("%s: %s is not a problem's: give it to tune-list "
                       "for the whole list, or leave it out\n", where, w);
            return 2;
        }
    return 0;
}

/* One line's problem into *p: 1, 0 blank, 2 said. */
static int line_problem(char *line, const char *where, at_problem *p)
{
    char *argv[MAX_WORDS + 1] = {"autotune"};
    int argc = 1;
    for (const unsigned char *c = (const unsigned char *)line; *c; ++c)
        if ((*c < 0x20 && *c != '\t' && *c != '\r') || *c == 0x7f)
            return at_cli_say("%s: a control character (0x%02x): not a "
                              "problem\n", where, *c), 2;
    line[strcspn(line, "#")] = '\0';
    for (char *w = strtok(line, " \t\r"); w; w = strtok(NULL, " \t\r")) {
        if (argc == MAX_WORDS)
            return at_cli_say("%s: more than %d words\n", where, MAX_WORDS),
                   2;
        if (w[0] == '-' && whole_list_flag(w, where))
            return 2;
        argv[argc++] = w;
    }
    if (argc == 1)
        return 0;
    opts o;
    int rc = at_opts_parse(argc, argv, &o);
    if (!rc && strcmp(o.cmd, "tune") != 0)
        return at_cli_say("%s: '%s' is a command, not a family\n", where,
                          argv[1]), 2;
    if (!rc && (o.sizes || o.from_cache))
        return at_cli_say("%s: a line is one problem (no --sizes or "
                          "--from-cache)\n", where), 2;
    if (!rc)
        rc = at_opts_problem(&o, p);
    if (rc)
        at_cli_say("%s: not a problem (a line reads as `autotune FAMILY "
                   "[--type T] [--size S] [fields]` would)\n", where);
    return rc ? 2 : 1;
}

/* The file's problems, repeats out: *ps (malloc'd), *n; 2 said. */
static int read_list(const char *path, at_problem **ps, int *n)
{
    char *text = NULL, where[1200], shown[1024];
    size_t len;
    at_err e = {0};
    *ps = NULL;
    *n = 0;
    if (at_read_file(path, &text, &len, &e)) {
        at_cli_fail(&e);
        return 2;
    }
    at_text_printable(path, shown, sizeof shown, 0);
    int cap = 1, rc = 0, line_no = 0;
    for (size_t i = 0; i < len; ++i)
        cap += text[i] == '\n';
    if (strlen(text) != len)
        rc = (at_cli_say("%s: a NUL byte: not a list of problems\n", shown),
              2);
    else if (!(*ps = calloc((size_t)cap, sizeof **ps)))
        rc = (at_cli_say("%s: out of memory\n", shown), 2);
    for (char *line = text, *next; !rc && line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        snprintf(where, sizeof where, "%s, line %d", shown, ++line_no);
        int got = line_problem(line, where, &(*ps)[*n]);
        rc = got == 2 ? 2 : 0;
        int k = 0;
        while (got == 1 && k < *n && !at_problem_equal(&(*ps)[k], &(*ps)[*n]))
            ++k;
        *n += got == 1 && k == *n;
    }
    free(text);
    if (!rc && *n == 0)
        rc = (at_cli_say("%s: no problem in it (a problem a line, as "
                         "`transpose --type f32 --size 8192x8192`)\n", shown),
              2);
    return rc;
}

/* AUTOTUNE_JOB_LEASE: seconds (default 60); -1 if not a number. */
static double lease_s(void)
{
    const char *v = getenv("AUTOTUNE_JOB_LEASE");
    char *end;
    if (!v || !*v)
        return 60;
    double s = strtod(v, &end);
    return *end || !(s >= 0.5 && s <= 86400) ? -1 : s;
}

/* What became of an answer: its column "how" and its count. */
enum { TUNED, CACHED, OTHER_HOST, FAILED, NOT_RUN, KINDS };
static const char *const kind_words[KINDS] = {"tuned", "cached",
                                              "other host", "failed",
                                              "not run"};

static int kind_of(const at_list_result *x)
{
    if (x->device == -2)
        return NOT_RUN; /* the run stopped first (said above) */
    if (x->rc)
        return FAILED;
    if (x->device == -1)
        return OTHER_HOST;
    return x->how == AUTOTUNE_HOW_TUNED ? TUNED : CACHED;
}

static int report(FILE *f, const at_list_result *res, int cells,
                  const at_problem *ps, int n_devices, double wall)
{
    int counts[KINDS] = {0}, bad = 0;
    fprintf(f, "autotune tune-list: %d answer%s on %d GPU%s in %.1f s\n", cells,
           cells == 1 ? "" : "s", n_devices, n_devices == 1 ? "" : "s",
           wall);
    int w = 20; /* the problem's column: as wide as the widest */
    for (int c = 0; c < cells; ++c) {
        char prob[512];
        at_problem_str(&ps[res[c].item], prob, sizeof prob);
        w = (int)strlen(prob) > w ? (int)strlen(prob) : w;
    }
    fprintf(f, "  %-*s  %-4s %-10s %8s %7s  %s\n", w, "problem", "gpu", "how",
            "seconds", "% copy", "point");
    for (int c = 0; c < cells; ++c) {
        const at_list_result *x = &res[c];
        char prob[512], gpu[16] = "-";
        at_problem_str(&ps[x->item], prob, sizeof prob);
        if (x->device >= 0)
            snprintf(gpu, sizeof gpu, "%d", x->device);
        int kind = kind_of(x);
        const char *how = kind_words[kind];
        counts[kind]++;
        if (kind == FAILED || kind == NOT_RUN) {
            fprintf(f, "  %-*s  %-4s %-10s %8.2f %7s  %s\n", w, prob, gpu,
                    how, x->seconds, "-", x->msg);
            bad = 1;
            continue;
        }
        fprintf(f, "  %-*s  %-4s %-10s %8.2f %7.1f  %s\n", w, prob, gpu, how,
                x->seconds, 100 * x->frac_copy, x->point);
    }
    fprintf(f, "  %d tuned here, %d from the cache, %d by other hosts, %d "
            "failed", counts[TUNED], counts[CACHED], counts[OTHER_HOST],
            counts[FAILED]);
    if (counts[NOT_RUN])
        fprintf(f, ", %d not run", counts[NOT_RUN]);
    fputc('\n', f);
    return bad;
}

int at_tune_on_devices(const opts *o, const at_problem *ps, int n,
                       FILE *table)
{
    int *devs = NULL, n_devs = 0, models = 0;
    int rc = at_parse_devices(o->devices ? o->devices : "0", &devs, &n_devs);
    double lease = lease_s();
    if (!rc && lease < 0)
        rc = at_bad_usage("AUTOTUNE_JOB_LEASE needs seconds from 0.5 to "
                          "86400, got '%s'", getenv("AUTOTUNE_JOB_LEASE"));
    char path[1024];
    at_err e = {0};
    if (!rc && at_cache_default_path(path, sizeof path, &e))
        rc = (at_cli_fail(&e), 1);
    at_list_result *res = NULL;
    double t0 = at_now_s();
    if (!rc) {
        at_tune_opts to;
        at_opts_tune(o, &to);
        at_list_env env = {.cache_path = path, .devices = devs,
                           .n_devices = n_devs,
                           .progress = o->quiet ? NULL : stderr,
                           .lease_s = lease};
        if (at_plan_list(&env, ps, n, &to, &res, &models, &e)) {
            int none = e.code == AUTOTUNE_ENO_DRIVER ||
                       e.code == AUTOTUNE_ENO_DEVICE;
            at_cli_fail_hint(&e, none ? " (tuning a list needs a CUDA GPU)"
                                      : "");
            rc = 1;
        }
    }
    if (res && models > 0 && report(table, res, n * models, ps, n_devs,
                                    at_now_s() - t0))
        rc = rc ? rc : 1;
    free(res);
    free(devs);
    return rc;
}

int at_cmd_tune_list(const opts *o, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    at_problem *ps = NULL;
    int n = 0, rc = read_list(o->file, &ps, &n);
    if (!rc)
        rc = at_tune_on_devices(o, ps, n, stdout);
    free(ps);
    return rc;
}
