/* The lists a tune may be given (options.h): --arch sm_80,sm_90 and
 * --sizes S,S,..., each item checked as its single flag would be. */
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/family.h"

/* --arch: auto (0), or sm_XX and lists of them (sm_80,sm_90), repeats
 * out; how many, 0 if not one of those. */
int at_parse_archs(const char *s, int *sm, int max)
{
    int n = 0;
    if (strcmp(s, "auto") == 0)
        return sm[0] = 0, 1;
    for (const char *c = s;; ++c) {
        char item[16];
        size_t len = strcspn(c, ",");
        snprintf(item, sizeof item, "%.*s", (int)len, c);
        int v = len < sizeof item ? at_parse_arch(item) : 0, k = 0;
        while (k < n && sm[k] != v)
            ++k;
        if (!v || (k == n && n == max))
            return 0;
        n += k == n;
        sm[k] = v;
        if (!*(c += len))
            return n;
    }
}

/* The problems --sizes lists (the other fields as given), repeats out:
 * *n of them in *ps (malloc'd); 2 (said) if one is not a problem. */
int at_sized_problems(const opts *o, at_problem **ps, int *n)
{
    int cap = 1;
    for (const char *c = o->sizes; *c; ++c)
        cap += *c == ',';
    if (!(*ps = calloc((size_t)cap, sizeof **ps)))
        return at_bad_usage("%s", "--sizes: out of memory");
    *n = 0;
    for (const char *c = o->sizes;; ++c) {
        char item[80];
        size_t len = strcspn(c, ",");
        snprintf(item, sizeof item, "%.*s", (int)len, c);
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
        if (!*(c += len))
            return 0;
    }
}
