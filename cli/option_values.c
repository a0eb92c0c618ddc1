/* Option values that need more than a number (options.h): budgets,
 * limits, effort levels, the type, names and paths. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/safefile.h"
#include "errors.h"
#include "gen/family.h"
#include "gen/ident.h"
#include "options.h"

/* "200" evaluations or "10s" seconds. */
static int parse_budget(opts *o)
{
    char *end;
    errno = 0;
    const char *b = o->budget;
    if (*b >= '0' && *b <= '9') {
        double v = strtod(b, &end);
        if (!errno && strcmp(end, "s") == 0 && v > 0 && v <= 86400) {
            o->budget_s = v;
            return 0;
        }
        unsigned long long n = strtoull(b, &end, 10);
        if (!errno && !*end && n > 0) {
            o->budget_evals = (size_t)n;
            return 0;
        }
    }
    return at_bad_usage("--budget needs evaluations (200) or seconds (10s), "
                        "more than 0, got '%s'", b);
}

/* Seconds, more than 0 and at most an hour. */
static int parse_seconds(const char *flag, const char *v, double *s)
{
    char *end;
    errno = 0;
    *s = strtod(v, &end);
    if (!*v || *end || errno || !(*s > 0) || *s > 3600) {
        at_cli_say("%s needs seconds, more than 0 and at most 3600, got "
                   "'%s'\n", flag, v);
        return 2;
    }
    return 0;
}

static int parse_effort(opts *o)
{
    static const char *const names[] = {"estimate", "measure", "exhaustive",
                                        "wisdom-only"};
    for (int i = 0; i < 4; ++i)
        if (strcmp(o->effort_text, names[i]) == 0) {
            o->effort = AUTOTUNE_ESTIMATE + i;
            return 0;
        }
    return at_bad_usage("--effort must be estimate, measure, exhaustive or "
                        "wisdom-only, got '%s'", o->effort_text);
}

/* Values that need more than a number: budget, limits, type, name. */
int at_opts_check_values(opts *o)
{
    if (o->budget && parse_budget(o))
        return 2;
    if (o->effort_text && parse_effort(o))
        return 2;
    if (o->limit && parse_seconds("--compile-limit", o->limit, &o->limit_s))
        return 2;
    if (o->klimit && parse_seconds("--kernel-limit", o->klimit, &o->klimit_s))
        return 2;
    const at_family *fam = o->family ? at_family_find(o->family) : NULL;
    if (!at_type_find(o->type)) { /* the family's own types, if it says */
        at_cli_say("unknown type '%s' for %s (known: %s)\n", o->type,
                   o->family, fam && fam->types ? fam->types
                                                : at_type_list());
        return 2;
    }
    at_err e = {0};
    if (o->name && at_ident_check(o->name, &e))
        return at_bad_usage("--name: %s", e.msg);
    const char *paths[] = {o->out, o->record, o->csv, o->data, o->resume};
    static const char *const flags[] = {"-o", "--record", "--csv",
                                        "--data", "--resume"};
    for (int i = 0; i < 5; ++i)
        if (paths[i] && !paths[i][0])
            return at_bad_usage("%s needs a path, got ''", flags[i]);
    for (int i = 0; i < 5; ++i)
        if (paths[i] && strlen(paths[i]) >= AT_PATH_MAX)
            return at_bad_usage("a path is too long (at most 1023 bytes): "
                                "%.60s...", paths[i]);
    return 0;
}

