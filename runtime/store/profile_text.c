/* A profile's text, as the store keeps it: "MS PARAMS" lines, fastest
 * first (made by the tuner, runtime/tune/profile.c). */
#include "runtime/store/store.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int at_profile_next(const char **at, double *ms, char *params, size_t n)
{
    const char *s = *at;
    if (!*s)
        return 0;
    const char *end = strchr(s, '\n');
    size_t len = end ? (size_t)(end - s) : strlen(s);
    *at = s + len + (end != NULL);
    char line[320];
    if (len >= sizeof line)
        return -1;
    memcpy(line, s, len);
    line[len] = '\0';
    char *rest;
    *ms = strtod(line, &rest);
    if (rest == line || *rest != ' ' || !(*ms > 0) || !isfinite(*ms) ||
        !rest[1] || strlen(rest + 1) >= n)
        return -1;
    for (const char *c = rest + 1; *c; ++c)
        if (*c < ' ' || *c > '~')
            return -1;
    memcpy(params, rest + 1, strlen(rest + 1) + 1);
    return 1;
}

int at_profile_valid(const char *text, char *why, size_t n)
{
    const char *at = text;
    double ms;
    char params[256];
    int lines = 0, r;
    while ((r = at_profile_next(&at, &ms, params, sizeof params)) != 0) {
        if (r < 0) {
            snprintf(why, n, "line %d is not a time and a point's "
                     "parameters", lines + 1);
            return 0;
        }
        if (++lines > AT_PROFILE) {
            snprintf(why, n, "more than %d lines", AT_PROFILE);
            return 0;
        }
    }
    return 1;
}
