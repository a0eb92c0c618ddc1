/* The lists a tune may be given (options.h): --arch sm_80,sm_90 and
 * --sizes S,S,..., each item checked as its single flag would be. */
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "gen/family.h"
#include "runtime/driver/driver.h"

/* How many items a comma list holds (an empty one counts). */
static int list_count(const char *s)
{
    int n = 1;
    for (; *s; ++s)
        n += *s == ',';
    return n;
}

/* The item at *c (up to the next comma) into item, cut to fit n; its
 * whole length. *c moves past it and its comma; NULL after the last. */
static size_t list_item(const char **c, char *item, size_t n)
{
    size_t len = strcspn(*c, ",");
    snprintf(item, n, "%.*s", (int)len, *c);
    *c = (*c)[len] ? *c + len + 1 : NULL;
    return len;
}

/* --arch: auto (0), or sm_XX and lists of them (sm_80,sm_90), repeats
 * out; how many, 0 if not one of those. */
int at_parse_archs(const char *s, int *sm, int max)
{
    int n = 0;
    if (strcmp(s, "auto") == 0)
        return sm[0] = 0, 1;
    for (const char *c = s; c;) {
        char item[16];
        size_t len = list_item(&c, item, sizeof item);
        int v = len < sizeof item ? at_parse_arch(item) : 0, k = 0;
        while (k < n && sm[k] != v)
            ++k;
        if (!v || (k == n && n == max))
            return 0;
        n += k == n;
        sm[k] = v;
    }
    return n;
}

/* The problems --sizes lists (the other fields as given), repeats out:
 * *n of them in *ps (malloc'd); 2 (said) if one is not a problem. */
int at_sized_problems(const opts *o, at_problem **ps, int *n)
{
    if (!(*ps = calloc((size_t)list_count(o->sizes), sizeof **ps)))
        return at_bad_usage("%s", "--sizes: out of memory");
    *n = 0;
    for (const char *c = o->sizes; c;) {
        char item[80];
        size_t len = list_item(&c, item, sizeof item);
        opts one = *o;
        if (len >= sizeof item || at_opts_set_size(&one, "--sizes", item))
            return 2;
        const at_family *f = at_family_find(o->family);
        for (int i = 0; i < f->n_fields; ++i)
            if (o->field[i] && one.field[i] != o->field[i])
                return at_bad_usage("--sizes gives each problem's %s: not "
                                    "with its flag", f->fields[i].name);
        if (at_opts_problem(&one, &(*ps)[*n]))
            return 2;
        int k = 0;
        while (k < *n && !at_problem_equal(&(*ps)[k], &(*ps)[*n]))
            ++k;
        *n += k == *n;
    }
    return 0;
}

/* --devices: all (the driver's count), or ordinals apart by commas, each
 * once; 2 (said) if not, 1 (said) if "all" finds no driver or device. */
int at_parse_devices(const char *s, int **out, int *n)
{
    *out = NULL;
    *n = 0;
    if (strcmp(s, "all") == 0) {
        at_err e = {0};
        int count = 0;
        if (at_device_count(&count, &e) || count == 0) {
            if (!e.code)
                at_fail(&e, AUTOTUNE_ENO_DEVICE, "--devices all: the driver "
                        "reports 0 CUDA devices");
            at_cli_fail_hint(&e, " (tuning a list needs a CUDA GPU)");
            return 1; /* not the command line's fault */
        }
        if (!(*out = calloc((size_t)count, sizeof **out)))
            return at_bad_usage("%s", "--devices: out of memory");
        for (*n = 0; *n < count; ++*n)
            (*out)[*n] = *n;
        return 0;
    }
    if (!(*out = calloc((size_t)list_count(s), sizeof **out)))
        return at_bad_usage("%s", "--devices: out of memory");
    for (const char *c = s; c;) {
        char item[16], *end;
        size_t len = list_item(&c, item, sizeof item);
        long v = strtol(item, &end, 10);
        int ok = len > 0 && len < sizeof item && item[0] >= '0' &&
                 item[0] <= '9' && !*end && v <= 1023;
        for (int k = 0; ok && k < *n; ++k)
            ok = (*out)[k] != (int)v;
        if (!ok)
            return at_bad_usage("--devices needs all, or device ordinals "
                                "(0 to 1023) apart by commas, each once, "
                                "as 0,1; got '%s'", s);
        (*out)[(*n)++] = (int)v;
    }
    return 0;
}
