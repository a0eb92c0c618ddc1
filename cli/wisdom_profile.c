/* A wisdom entry's profile (runtime/store/store.h): the cache's text of
 * "MS PARAMS" lines as a JSON array of {"ms", "params"} objects, and
 * back, every element checked. */
#include "wisdom.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "json.h"
#include "runtime/store/store.h"

json_t *at_wisdom_profile_json(const char *text)
{
    json_t *list = json_array();
    const char *at = text;
    double ms;
    char params[256];
    int r;
    while (list && (r = at_profile_next(&at, &ms, params, sizeof params))) {
        if (r < 0)
            continue; /* the cache blanks a bad profile on reading */
        json_t *o = at_json_object(NULL);
        at_json_real(o, "ms", ms);
        at_json_str(o, "params", params);
        json_array_append_new(list, o);
    }
    return list;
}

int at_wisdom_profile_read(json_t *list, char *buf, size_t n, char *why,
                           size_t wn)
{
    if (!json_is_array(list))
        return snprintf(why, wn, "is not an array"), -1;
    if (json_array_size(list) > AT_PROFILE)
        return snprintf(why, wn, "has %zu points, at most %d",
                        json_array_size(list), AT_PROFILE), -1;
    size_t used = 0, i;
    json_t *o;
    buf[0] = '\0';
    json_array_foreach(list, i, o) {
        json_t *ms = json_object_get(o, "ms");
        const char *p = json_string_value(json_object_get(o, "params"));
        double v = json_is_number(ms) ? json_number_value(ms) : -1;
        if (!json_is_object(o) || json_object_size(o) != 2 || !(v > 0) ||
            !isfinite(v) || !p || !*p || strlen(p) > 255 ||
            !at_text_is_ascii(p))
            return snprintf(why, wn, "point %zu is not {\"ms\": a positive "
                            "time, \"params\": a point's parameters}",
                            i + 1), -1;
        int k = snprintf(buf + used, n - used, "%.17g %s\n", v, p);
        if (k < 0 || (size_t)k >= n - used)
            return snprintf(why, wn, "is longer than the cache keeps (%zu "
                            "bytes)", n - 1), -1;
        used += (size_t)k;
    }
    return 0;
}
