/* `autotune cache import FILE`: a wisdom file (docs/WISDOM.md) read and
 * every part of every entry checked (format and version, each field's
 * presence, type and range, texts the cache would take, the cubin's hash
 * and architecture) before anything is written; then all entries go in
 * one transaction, each under the cache's rule for a key it holds already
 * (at_cache_keeps_old), or replacing it with --force. */
#include "wisdom.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "errors.h"
#include "gen/family.h"
#include "runtime/store/store.h"

/* One entry's checks: the first thing wrong goes into why. */
typedef struct check {
    char why[768];
} check;

static int wrong(check *c, const char *fmt, const char *field,
                 const char *more)
{
    snprintf(c->why, sizeof c->why, fmt, field, more);
    return -1;
}

static json_t *field(json_t *o, const char *name, check *c)
{
    json_t *v = json_object_get(o, name);
    if (!v)
        wrong(c, "%s is missing%s", name, "");
    return v;
}

/* A text field into dst (cap bytes): printable ASCII, the cache's rule;
 * empty only if may_be_empty. */
static int text(json_t *o, const char *name, char *dst, size_t cap,
                int may_be_empty, check *c)
{
    json_t *v = field(o, name, c);
    if (!v)
        return -1;
    if (!json_is_string(v))
        return wrong(c, "%s is not a string%s", name, "");
    const char *s = json_string_value(v);
    size_t n = json_string_length(v);
    if (n != strlen(s) || !at_text_is_ascii(s))
        return wrong(c, "%s holds a control character or a byte that is "
                     "not ASCII%s", name, " (the cache takes neither)");
    if (n >= cap) {
        char more[64];
        snprintf(more, sizeof more, " (%zu bytes, at most %zu)", n, cap - 1);
        return wrong(c, "%s is too long%s", name, more);
    }
    if (!n && !may_be_empty)
        return wrong(c, "%s is empty%s", name, "");
    memcpy(dst, s, n + 1);
    return 0;
}

static int hex16(json_t *o, const char *name, char dst[17], check *c)
{
    if (text(o, name, dst, 17, 0, c))
        return -1;
    if (strlen(dst) != 16 || strspn(dst, "0123456789abcdef") != 16)
        return wrong(c, "%s is not 16 lowercase hexadecimal digits%s", name,
                     "");
    return 0;
}

static int integer(json_t *o, const char *name, long long min,
                   long long max, long long *dst, check *c)
{
    json_t *v = field(o, name, c);
    if (!v)
        return -1;
    if (!json_is_integer(v))
        return wrong(c, "%s is not an integer%s", name, "");
    long long x = json_integer_value(v);
    if (x < min || x > max) {
        char more[96];
        snprintf(more, sizeof more, " (%lld; %lld to %lld)", x, min, max);
        return wrong(c, "%s is out of range%s", name, more);
    }
    *dst = x;
    return 0;
}

static int int_field(json_t *o, const char *name, long long min, int *dst,
                     check *c)
{
    long long x;
    if (integer(o, name, min, INT32_MAX, &x, c))
        return -1;
    *dst = (int)x;
    return 0;
}

/* A finite number, at least min (above it if strict). */
static int number(json_t *o, const char *name, double min, int strict,
                  double *dst, check *c)
{
    json_t *v = field(o, name, c);
    if (!v)
        return -1;
    if (!json_is_number(v))
        return wrong(c, "%s is not a number%s", name, "");
    double x = json_number_value(v);
    if (!isfinite(x) || x < min || (strict && x == min))
        return wrong(c, "%s is out of range%s", name,
                     strict ? " (must be above 0)" : " (must be 0 or more)");
    *dst = x;
    return 0;
}

static json_t *object(json_t *o, const char *name, check *c)
{
    json_t *v = field(o, name, c);
    if (v && !json_is_object(v)) {
        wrong(c, "%s is not an object%s", name, "");
        return NULL;
    }
    return v;
}

static int read_key(json_t *o, at_key *k, check *c)
{
    json_t *j = object(o, "key", c);
    int rc = j ? 0 : -1;
    rc = rc ? rc : text(j, "gpu", k->gpu, sizeof k->gpu, 0, c);
    rc = rc ? rc : int_field(j, "sm", 10, &k->cc, c);
    rc = rc ? rc : int_field(j, "sms", 1, &k->sms, c);
    rc = rc ? rc : int_field(j, "driver", 1, &k->driver, c);
    rc = rc ? rc : text(j, "driver_build", k->driver_build,
                        sizeof k->driver_build, 1, c);
    rc = rc ? rc : text(j, "nvrtc", k->nvrtc, sizeof k->nvrtc, 1, c);
    rc = rc ? rc : hex16(j, "template_hash", k->template_hash, c);
    rc = rc ? rc : hex16(j, "space_hash", k->space_hash, c);
    rc = rc ? rc : text(j, "family", k->family, sizeof k->family, 0, c);
    rc = rc ? rc : text(j, "type", k->type, sizeof k->type, 0, c);
    rc = rc ? rc : text(j, "problem", k->problem, sizeof k->problem, 0, c);
    if (rc && j) {
        char tmp[sizeof c->why];
        snprintf(tmp, sizeof tmp, "key.%s", c->why);
        snprintf(c->why, sizeof c->why, "%s", tmp);
    }
    return rc;
}

static int read_figures(json_t *o, at_entry *en, check *c)
{
    json_t *j = object(o, "figures", c);
    int rc = j ? 0 : -1;
    rc = rc ? rc : number(j, "median_ms", 0, 1, &en->median_ms, c);
    rc = rc ? rc : number(j, "gbps", 0, 0, &en->gbps, c);
    rc = rc ? rc : number(j, "copy_gbps", 0, 0, &en->copy_gbps, c);
    rc = rc ? rc : number(j, "frac_copy", 0, 0, &en->frac_copy, c);
    rc = rc ? rc : int_field(j, "registers", 0, &en->registers, c);
    rc = rc ? rc : int_field(j, "shared_bytes", 0, &en->shared_bytes, c);
    rc = rc ? rc : int_field(j, "local_bytes", 0, &en->local_bytes, c);
    rc = rc ? rc : number(j, "tune_s", 0, 0, &en->tune_seconds, c);
    rc = rc ? rc : int_field(j, "points", 0, &en->points, c);
    if (rc && j) {
        char tmp[sizeof c->why];
        snprintf(tmp, sizeof tmp, "figures.%s", c->why);
        snprintf(c->why, sizeof c->why, "%s", tmp);
    }
    return rc;
}

/* "2024-05-01T12:34:56Z", as the cache writes it. */
static int created(json_t *o, char *dst, size_t cap, check *c)
{
    if (text(o, "created", dst, cap, 0, c))
        return -1;
    const char *form = "dddd-dd-ddTdd:dd:ddZ";
    int ok = strlen(dst) == strlen(form);
    for (size_t i = 0; ok && form[i]; ++i)
        ok = form[i] == 'd' ? dst[i] >= '0' && dst[i] <= '9'
                            : dst[i] == form[i];
    return ok ? 0 : wrong(c, "%s is not a UTC time as "
                          "2024-05-01T12:34:56Z%s", "created", "");
}

static int effort(json_t *o, int *dst, check *c)
{
    char name[32];
    if (text(o, "effort", name, sizeof name, 0, c))
        return -1;
    if (strcmp(name, "measure") == 0)
        *dst = AUTOTUNE_MEASURE;
    else if (strcmp(name, "exhaustive") == 0)
        *dst = AUTOTUNE_EXHAUSTIVE;
    else
        return wrong(c, "%s is '%s', not measure or exhaustive (the "
                     "efforts the cache stores)", "effort", name);
    return 0;
}

/* The cubin: there, base64 of cubin_size bytes, matching the entry's
 * hash, an ELF image for the key's architecture. */
static int cubin(json_t *o, at_entry *en, check *c)
{
    long long size;
    char hash[17], got[17], b64why[200];
    if (integer(o, "cubin_size", 1, INT32_MAX, &size, c) ||
        hex16(o, "entry_hash", hash, c))
        return -1;
    json_t *v = json_object_get(o, "cubin");
    if (!v)
        return wrong(c, "%s: it was exported without --cubins, and this "
                     "autotune imports entries only with their cubins%s",
                     "no cubin", " (export again with --cubins)");
    if (!json_is_string(v))
        return wrong(c, "%s is not a string%s", "cubin", "");
    int rc = at_base64_decode(json_string_value(v), json_string_length(v),
                              (unsigned char **)&en->cubin, &en->cubin_size);
    if (rc)
        return wrong(c, "%s is %s", "cubin",
                     rc == -2 ? "too large for memory" : "not base64");
    if (en->cubin_size != (size_t)size) {
        snprintf(b64why, sizeof b64why, " (%zu bytes; cubin_size says %lld)",
                 en->cubin_size, size);
        return wrong(c, "%s is cut short or padded%s", "cubin", b64why);
    }
    at_cache_entry_hash(en->point, en->params, en->cubin, en->cubin_size,
                        got);
    if (strcmp(got, hash) != 0) {
        snprintf(b64why, sizeof b64why, " (entry_hash %s; its point, "
                 "parameters and cubin hash to %s)", hash, got);
        return wrong(c, "%s does not match%s", "the hash", b64why);
    }
    int sm;
    if (at_cubin_sm(en->cubin, en->cubin_size, &sm, b64why, sizeof b64why))
        return wrong(c, "%s is %s", "the cubin", b64why);
    if (sm != en->key.cc) {
        snprintf(b64why, sizeof b64why, "is for sm_%d, but the key says "
                 "sm_%d", sm, en->key.cc);
        return wrong(c, "%s %s", "the cubin (its ELF header)", b64why);
    }
    return 0;
}

static int read_entry(json_t *o, at_entry *en, check *c)
{
    memset(en, 0, sizeof *en);
    if (!json_is_object(o))
        return wrong(c, "%s is not an object%s", "the entry", "");
    long long seed;
    if (read_key(o, &en->key, c) ||
        text(o, "point", en->point, sizeof en->point, 0, c) ||
        text(o, "params", en->params, sizeof en->params, 0, c) ||
        effort(o, &en->effort, c) || read_figures(o, en, c) ||
        integer(o, "seed", 0, INT64_MAX, &seed, c) ||
        created(o, en->created, sizeof en->created, c))
        return -1;
    en->seed = (uint64_t)seed;
    json_t *prof = json_object_get(o, "profile");
    char why[160];
    if (prof && at_wisdom_profile_read(prof, en->profile, sizeof en->profile,
                                       why, sizeof why))
        return wrong(c, "%s %s", "the profile", why);
    return cubin(o, en, c);
}

/* "transpose f32 rows=..." from what the entry's key holds, for
 * messages; "" when it has none. */
static void entry_name(json_t *o, char *buf, size_t n)
{
    json_t *k = json_object_get(o, "key");
    const char *part[3] = {"family", "type", "problem"};
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < 3 && json_is_object(k); ++i) {
        const char *s = json_string_value(json_object_get(k, part[i]));
        if (s && used < n)
            used += (size_t)snprintf(buf + used, n - used, "%s%s",
                                     used ? " " : "", s);
    }
}

/* The file's header: format, version, count, entries. */
static json_t *header(json_t *top, const char *path)
{
    const char *fmt = json_string_value(json_object_get(top, "format"));
    json_t *ver = json_object_get(top, "version");
    json_t *list = json_object_get(top, "entries");
    json_t *count = json_object_get(top, "count");
    if (!json_is_object(top) || !fmt || strcmp(fmt, AT_WISDOM_FORMAT) != 0) {
        at_cli_say("import %s: not an autotune wisdom file (no \"format\": "
                   "\"%s\")\n", path, AT_WISDOM_FORMAT);
        return NULL;
    }
    const char *by = json_string_value(json_object_get(top, "autotune"));
    if (!json_is_integer(ver) || json_integer_value(ver) < 1) {
        at_cli_say("import %s: \"version\" is missing or not a version "
                   "number\n", path);
        return NULL;
    }
    if (json_integer_value(ver) > AT_WISDOM_VERSION) {
        at_cli_say("import %s: wisdom format version %lld (written by "
                   "autotune %s) is newer than this autotune %s reads "
                   "(version %d): import it with a newer autotune\n", path,
                   (long long)json_integer_value(ver), by ? by : "?",
                   AUTOTUNE_VERSION, AT_WISDOM_VERSION);
        return NULL;
    }
    if (!json_is_array(list) || !json_is_integer(count)) {
        at_cli_say("import %s: \"%s\" is missing or not %s\n", path,
                   json_is_array(list) ? "count" : "entries",
                   json_is_array(list) ? "an integer" : "an array");
        return NULL;
    }
    if (json_integer_value(count) != (json_int_t)json_array_size(list)) {
        at_cli_say("import %s: \"count\" says %lld entries, the file holds "
                   "%zu: cut short or edited\n", path,
                   (long long)json_integer_value(count),
                   json_array_size(list));
        return NULL;
    }
    return list;
}

/* Reads and checks every entry; 0, or 2 with each problem said. */
static int read_all(json_t *list, const char *path, at_entry *en)
{
    size_t n = json_array_size(list), bad = 0;
    for (size_t i = 0; i < n; ++i) {
        check c = {{0}};
        json_t *o = json_array_get(list, i);
        if (read_entry(o, &en[i], &c) == 0)
            continue;
        char name[700];
        entry_name(o, name, sizeof name);
        if (++bad <= 20)
            at_cli_say("import %s: entry %zu%s%s%s: %s\n", path, i + 1,
                       name[0] ? " (" : "", name, name[0] ? ")" : "",
                       c.why);
    }
    if (!bad)
        return 0;
    at_cli_say("import %s: %zu of %zu entries refused; nothing imported\n",
               path, bad, n);
    return 2;
}

/* The file as JSON; NULL with *status 1 (unreadable) or 2 (not JSON),
 * said. */
static json_t *load(const char *path, int *status)
{
    json_error_t je;
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    *status = 1;
    if (!f) {
        at_cli_say("import %s: %s\n", path, strerror(errno));
        return NULL;
    }
    *status = 2;
    json_t *top = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    if (f != stdin)
        fclose(f);
    if (!top)
        at_cli_say("import %s: not a whole JSON document (cut short or "
                   "damaged?): %s, line %d, column %d\n", path, je.text,
                   je.line, je.column);
    return top;
}


/* Whether this build would use the entry (its family known, its problem
 * read, the template hash its own): a note when not, else "". */
static void build_note(const at_entry *en, char *note, size_t n)
{
    const at_key *k = &en->key;
    at_problem p;
    at_limits l = {k->cc, 1024, 48 * 1024};
    at_key mine;
    at_err e = {0};
    note[0] = '\0';
    if (!at_family_find(k->family)) {
        snprintf(note, n, "; note: this build has no family %s and will "
                 "not use it", k->family);
        return;
    }
    if (at_problem_make(&p, k->family, k->type, k->problem, &e)) {
        snprintf(note, n, "; note: this build cannot read its problem "
                 "(%s) and will not use it", e.msg);
        return;
    }
    at_limits_for_arch(k->cc, &l);
    if (at_key_fill(&mine, NULL, &p, &l, &e) == 0 &&
        strcmp(mine.template_hash, k->template_hash) != 0)
        snprintf(note, n, "; note: tuned by another build of autotune "
                 "(template hash %s, this build's %s): this build will not "
                 "use it", k->template_hash, mine.template_hash);
}

static void say_outcome(size_t i, const at_entry *en,
                        const at_import_result *r)
{
    const at_key *k = &en->key;
    char name[1024], note[1024];
    snprintf(name, sizeof name, "%s %s %s on %s (sm_%d)", k->family,
             k->type, k->problem, k->gpu, k->cc);
    build_note(en, note, sizeof note);
    const char *mine = at_effort_name(en->effort);
    const char *old = at_effort_name(r->old_effort);
    switch (r->outcome) {
    case AT_IMPORT_ADDED:
        printf("entry %zu: added %s%s\n", i + 1, name, note);
        break;
    case AT_IMPORT_REPLACED:
        printf("entry %zu: replaced the cache's entry for %s (%s, %.6g ms; "
               "this one %s, %.6g ms)%s\n", i + 1, name, old, r->old_ms,
               mine, en->median_ms, note);
        break;
    case AT_IMPORT_KEPT:
        if (r->old_effort != en->effort)
            printf("entry %zu: kept the cache's entry for %s: it was found "
                   "at higher effort (%s; this one %s); --force replaces "
                   "it\n", i + 1, name, old, mine);
        else
            printf("entry %zu: kept the cache's entry for %s: it is as "
                   "fast or faster (%.6g ms; this one %.6g ms); --force "
                   "replaces it\n", i + 1, name, r->old_ms, en->median_ms);
        break;
    case AT_IMPORT_SAME:
        printf("entry %zu: the cache holds this entry for %s already\n",
               i + 1, name);
        break;
    }
}

/* Every entry checked: into the cache, in one transaction. */
static int store(const char *path, const char *cache_path,
                 const at_entry *en, size_t n, int force,
                 at_import_result *res)
{
    at_cache *c = NULL;
    at_err e = {0};
    if (at_cache_open(&c, cache_path, &e) ||
        at_cache_import(c, en, n, force, res, &e)) {
        at_cli_say("import %s: nothing imported: %s\n", path, e.msg);
        at_cache_close(c);
        return 1;
    }
    at_cache_close(c);
    size_t count[4] = {0};
    for (size_t i = 0; i < n; ++i) {
        say_outcome(i, &en[i], &res[i]);
        ++count[res[i].outcome];
    }
    printf("imported %zu of %zu entries into %s: %zu added, %zu replaced, "
           "%zu kept (the cache's were better), %zu there already\n",
           count[AT_IMPORT_ADDED] + count[AT_IMPORT_REPLACED], n, cache_path,
           count[AT_IMPORT_ADDED], count[AT_IMPORT_REPLACED],
           count[AT_IMPORT_KEPT], count[AT_IMPORT_SAME]);
    return fflush(stdout) == 0 ? 0 : 1;
}

int at_wisdom_import(const char *path, const char *cache_path, int force)
{
    int rc = 0;
    json_t *top = load(path, &rc);
    if (!top)
        return rc;
    json_t *list = header(top, path);
    size_t n = list ? json_array_size(list) : 0;
    at_entry *en = calloc(n ? n : 1, sizeof *en);
    at_import_result *res = calloc(n ? n : 1, sizeof *res);
    if (!list)
        rc = 2;
    else if (!en || !res) {
        at_cli_say("import %s: no memory for %zu entries\n", path, n);
        rc = 1;
    } else
        rc = read_all(list, path, en);
    json_decref(top);
    if (!rc)
        rc = store(path, cache_path, en, n, force, res);
    for (size_t i = 0; en && i < n; ++i)
        at_entry_free(&en[i]);
    free(en);
    free(res);
    return rc;
}
