/* `autotune cache export`: the tuning cache's entries as a wisdom file
 * (docs/WISDOM.md), each entry as a JSON object (for `cache list --json`
 * too), and base64 both ways (the decoder for wisdom_import.c). */
#include "wisdom.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/safefile.h"
#include "json.h"
#include "runtime/store/store.h"

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *at_base64_encode(const void *data, size_t n)
{
    const unsigned char *p = data;
    if (n > (((size_t)-1) / 4 - 1) / 4 * 3)
        return NULL;
    char *out = malloc((n + 2) / 3 * 4 + 1), *o = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        *o++ = b64[v >> 18 & 63];
        *o++ = b64[v >> 12 & 63];
        *o++ = i + 1 < n ? b64[v >> 6 & 63] : '=';
        *o++ = i + 2 < n ? b64[v & 63] : '=';
    }
    *o = '\0';
    return out;
}

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

int at_base64_decode(const char *s, size_t len, unsigned char **out,
                     size_t *n)
{
    *out = NULL;
    *n = 0;
    if (len % 4)
        return -1;
    size_t pad = len && s[len - 1] == '=' ? 1 + (s[len - 2] == '=') : 0;
    unsigned char *o = malloc(len / 4 * 3 + 1);
    if (!o)
        return -2;
    size_t k = 0;
    for (size_t i = 0; i < len; i += 4) {
        int last = i + 4 == len, v[4];
        for (int j = 0; j < 4; ++j) {
            int is_pad = last && j >= 4 - (int)pad;
            v[j] = is_pad ? 0 : b64_value((unsigned char)s[i + j]);
            if (v[j] < 0) {
                free(o);
                return -1;
            }
        }
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 |
                     (uint32_t)v[2] << 6 | (uint32_t)v[3];
        /* Canonical: the bits the padding leaves over are zero. */
        if (last && ((pad == 1 && (w & 0xff)) || (pad == 2 && (w & 0xffff)))) {
            free(o);
            return -1;
        }
        o[k++] = (unsigned char)(w >> 16);
        if (!last || pad < 2)
            o[k++] = (unsigned char)(w >> 8);
        if (!last || pad < 1)
            o[k++] = (unsigned char)w;
    }
    *out = o;
    *n = k;
    return 0;
}

const char *at_effort_name(int effort)
{
    switch (effort) {
    case AUTOTUNE_ESTIMATE:
        return "estimate";
    case AUTOTUNE_MEASURE:
        return "measure";
    case AUTOTUNE_EXHAUSTIVE:
        return "exhaustive";
    case AUTOTUNE_WISDOM_ONLY:
        return "wisdom-only";
    }
    return "unknown";
}

static json_t *key_object(const at_key *k)
{
    json_t *o = at_json_object(NULL);
    at_json_str(o, "gpu", k->gpu);
    at_json_int(o, "sm", k->cc);
    at_json_int(o, "sms", k->sms);
    at_json_int(o, "driver", k->driver);
    at_json_str(o, "driver_build", k->driver_build);
    at_json_str(o, "nvrtc", k->nvrtc);
    at_json_str(o, "template_hash", k->template_hash);
    at_json_str(o, "space_hash", k->space_hash);
    at_json_str(o, "family", k->family);
    at_json_str(o, "type", k->type);
    at_json_str(o, "problem", k->problem);
    return o;
}

static json_t *figures_object(const at_entry *en)
{
    json_t *o = at_json_object(NULL);
    at_json_real(o, "median_ms", en->median_ms);
    at_json_real(o, "gbps", en->gbps);
    at_json_real(o, "copy_gbps", en->copy_gbps);
    at_json_real(o, "frac_copy", en->frac_copy);
    at_json_int(o, "registers", en->registers);
    at_json_int(o, "shared_bytes", en->shared_bytes);
    at_json_int(o, "local_bytes", en->local_bytes);
    at_json_real(o, "tune_s", en->tune_seconds);
    at_json_int(o, "points", en->points);
    return o;
}

json_t *at_wisdom_entry(const at_entry *en, int with_cubin)
{
    json_t *o = at_json_object(NULL);
    if (!o)
        return NULL;
    char hash[17];
    at_cache_entry_hash(en->point, en->params, en->cubin, en->cubin_size,
                        hash);
    at_json_put(o, "key", key_object(&en->key));
    at_json_str(o, "point", en->point);
    at_json_str(o, "params", en->params);
    at_json_str(o, "effort", at_effort_name(en->effort));
    at_json_put(o, "figures", figures_object(en));
    /* Seeds are 1 to 2^63 - 1 (docs/json.md): a JSON integer, exact. */
    at_json_int(o, "seed", (int64_t)en->seed);
    at_json_str(o, "created", en->created);
    at_json_int(o, "cubin_size", (int64_t)en->cubin_size);
    at_json_str(o, "entry_hash", hash);
    if (en->profile[0])
        at_json_put(o, "profile", at_wisdom_profile_json(en->profile));
    if (with_cubin) {
        char *text = at_base64_encode(en->cubin, en->cubin_size);
        if (!text) {
            json_decref(o);
            return NULL;
        }
        at_json_str(o, "cubin", text);
        free(text);
    }
    return o;
}

/* The whole file: format, version, writer, then the entries. */
static json_t *wisdom_object(const at_entry *en, size_t n, int cubins)
{
    json_t *top = at_json_object(NULL), *list = json_array();
    char now[32];
    at_utc_now(now, sizeof now);
    at_json_str(top, "format", AT_WISDOM_FORMAT);
    at_json_int(top, "version", AT_WISDOM_VERSION);
    at_json_str(top, "autotune", AUTOTUNE_VERSION);
    at_json_str(top, "exported", now);
    at_json_bool(top, "cubins", cubins);
    at_json_int(top, "count", (int64_t)n);
    for (size_t i = 0; list && i < n; ++i) {
        json_t *o = at_wisdom_entry(&en[i], cubins);
        if (!o || json_array_append_new(list, o)) {
            json_decref(list);
            list = NULL;
        }
    }
    if (!top || !list || json_object_set_new(top, "entries", list)) {
        json_decref(top);
        return NULL;
    }
    return top;
}

int at_wisdom_export(const at_entry *en, size_t n, const char *path,
                     int cubins, at_err *e)
{
    json_t *top = wisdom_object(en, n, cubins);
    if (!top)
        return at_fail(e, AUTOTUNE_ENOMEM, "the wisdom of %zu entries", n);
    at_safefile s;
    int rc = at_safefile_open(&s, path, e);
    if (rc) {
        json_decref(top);
        return rc;
    }
    errno = 0;
    int bad = json_dumpf(top, s.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                       JSON_REAL_PRECISION(17)) != 0 ||
              fputc('\n', s.f) == EOF;
    int err = errno ? errno : EIO;
    json_decref(top);
    if (bad) { /* a wisdom file cut short is of no use: none is left */
        at_safefile_discard(&s);
        return at_fail(e, AUTOTUNE_EIO, "writing %s: %s; nothing written",
                       path, strerror(err));
    }
    return at_safefile_commit(&s, e);
}
