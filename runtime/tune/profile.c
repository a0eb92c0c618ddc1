/* A tune's profile: its fastest timed points, offered as they are timed
 * and written as the text the store keeps (runtime/store/profile_text.c
 * reads it back). */
#include "runtime/tune/tune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void at_profile_offer(at_tuned *o, const char *params, double ms)
{
    if (!(ms > 0) || !isfinite(ms))
        return;
    int slot = o->n_profile;
    if (slot == AT_PROFILE) { /* full: replace the slowest if slower */
        slot = 0;
        for (int i = 1; i < AT_PROFILE; ++i)
            if (o->profile[i].ms > o->profile[slot].ms)
                slot = i;
        if (o->profile[slot].ms <= ms)
            return;
    } else {
        o->n_profile++;
    }
    o->profile[slot].ms = ms;
    snprintf(o->profile[slot].params, sizeof o->profile[slot].params, "%s",
             params);
}

static int by_ms(const void *a, const void *b)
{
    double x = (*(const at_profile_point *const *)a)->ms;
    double y = (*(const at_profile_point *const *)b)->ms;
    return (x > y) - (x < y);
}

void at_profile_text(const at_tuned *o, char *buf, size_t n)
{
    const at_profile_point *order[AT_PROFILE];
    for (int i = 0; i < o->n_profile; ++i)
        order[i] = &o->profile[i];
    qsort(order, (size_t)o->n_profile, sizeof order[0], by_ms);
    size_t at = 0;
    if (n)
        buf[0] = '\0';
    for (int i = 0; i < o->n_profile; ++i) {
        char line[300];
        int k = snprintf(line, sizeof line, "%.6g %s\n", order[i]->ms,
                         order[i]->params);
        if (k < 0 || (size_t)k >= sizeof line || at + (size_t)k + 1 > n)
            break;
        memcpy(buf + at, line, (size_t)k + 1);
        at += (size_t)k;
    }
}
