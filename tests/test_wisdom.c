/* The cache as a tool (issue 12): `autotune cache list|show|export|import|
 * remove|clear` run as the real binary ($AUTOTUNE_BIN) on caches built
 * here with at_cache_put, and the runtime parts beside it (the entry's
 * hash, a cubin's architecture). Export then import round-trips every
 * field; every malformed wisdom file is refused with exit 2, naming the
 * entry, and leaves the target cache as it was; a better entry in the
 * cache stays unless --force. Cubins are NVRTC's for sm_80 and sm_90
 * where NVRTC loads, else ELF headers written as NVCC 13 writes them.
 * No GPU. */
#include "cli_run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/store/store.h"
#include "runtime/driver/driver.h"

static char *cli_bin;
/* Cubins for sm_80 and sm_90: NVRTC's, or a hand-written header. */
static unsigned char *cubin80, *cubin90;
static size_t cubin80_n, cubin90_n;
static int real_cubins;

typedef struct fixture {
    const void *arg; /* the case, for table-driven tests */
    char dir[64];
    char src[96], dst[96], file[96]; /* two caches, a wisdom file */
    char cmd[600];
    int status;
    char *out, *err;
} fixture;

#define CHECK(fx, cond)                                                      \
    do {                                                                     \
        if (!(cond)) {                                                       \
            print_error("%s: failed: %s; exit %d\nstdout: %s\nstderr: %s\n", \
                        (fx)->cmd, #cond, (fx)->status,                      \
                        (fx)->out ? (fx)->out : "",                          \
                        (fx)->err ? (fx)->err : "");                         \
            _fail(__FILE__, __LINE__);                                       \
        }                                                                    \
    } while (0)

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    if (!fx)
        return -1;
    fx->arg = *state; /* the prestate, if any */
    strcpy(fx->dir, "/tmp/at-wisdom-XXXXXX");
    if (!mkdtemp(fx->dir)) {
        free(fx);
        return -1;
    }
    snprintf(fx->src, sizeof fx->src, "%s/src.db", fx->dir);
    snprintf(fx->dst, sizeof fx->dst, "%s/dst.db", fx->dir);
    snprintf(fx->file, sizeof fx->file, "%s/wisdom.json", fx->dir);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    free(fx->out);
    free(fx->err);
    int rc = at_rm_tree(fx->dir);
    free(fx);
    return rc;
}

/* Runs the CLI (args NULL-ended) in fx->dir with AUTOTUNE_CACHE = the
 * target cache and no CUDA driver. */
static void run(fixture *fx, const char *const *args)
{
    char *argv[24];
    int na = 0, used = snprintf(fx->cmd, sizeof fx->cmd, "autotune");
    argv[na++] = cli_bin;
    for (int i = 0; args[i] && na < 23; ++i) {
        argv[na++] = (char *)args[i];
        if (used < (int)sizeof fx->cmd)
            used += snprintf(fx->cmd + used, sizeof fx->cmd - used, " %s",
                             args[i]);
    }
    argv[na] = NULL;
    char cache[128], home[128];
    snprintf(cache, sizeof cache, "AUTOTUNE_CACHE=%s", fx->dst);
    snprintf(home, sizeof home, "HOME=%s", fx->dir);
    char *env[] = {cache, home, "ASAN_OPTIONS=detect_leaks=1",
                   "AUTOTUNE_LIBCUDA=/nonexistent/libcuda.so.1", NULL};
    free(fx->out);
    free(fx->err);
    at_run_captured(cli_bin, argv, env, fx->dir, &fx->status, &fx->out,
                    &fx->err);
}

#define RUN(fx, ...)                                                         \
    run(fx, (const char *const[]){__VA_ARGS__, NULL})

/* --- entries ------------------------------------------------------ */

/* A cubin for sm (80 or 90), padded by pad bytes (the base64 tail's
 * three cases; the ELF header alone is read). malloc'd. */
static void *cubin_for(int sm, size_t pad, size_t *n)
{
    const unsigned char *b = sm == 80 ? cubin80 : cubin90;
    size_t k = sm == 80 ? cubin80_n : cubin90_n;
    unsigned char *c = malloc(k + pad);
    assert_non_null(c);
    memcpy(c, b, k);
    for (size_t i = 0; i < pad; ++i)
        c[k + i] = (unsigned char)(0xa5 + i);
    *n = k + pad;
    return c;
}

/* Entry i: varied keys (family, type, GPU, sm, problem) and figures;
 * created i minutes past noon, so list's order (newest first) is known.
 * The key's template and space hashes and problem text are this build's
 * (at_key_fill), but for odd i, whose template hash is another build's. */
static void make_entry(at_entry *en, int i, const char *family,
                       const char *type, const char *gpu, int sm)
{
    memset(en, 0, sizeof *en);
    at_key *k = &en->key;
    at_problem p;
    at_limits l;
    at_err e = {0};
    char rows[32];
    snprintf(rows, sizeof rows, "%d", 1024 * (i + 1));
    assert_int_equal(at_problem_begin(&p, family, type, &e), 0);
    assert_int_equal(at_problem_set(&p, "rows", rows, &e), 0);
    assert_int_equal(at_problem_set(&p, strcmp(family, "reduce") ? "cols"
                                                                 : "axis",
                                    strcmp(family, "reduce") ? "4096"
                                                             : "cols", &e),
                     0);
    assert_int_equal(at_problem_finish(&p, &e), 0);
    assert_true(at_limits_for_arch(sm, &l));
    assert_int_equal(at_key_fill(k, NULL, &p, &l, &e), 0);
    snprintf(k->gpu, sizeof k->gpu, "%s", gpu);
    k->sms = sm == 90 ? 132 : 108;
    k->driver = 13000;
    snprintf(k->driver_build, sizeof k->driver_build, "580.159.04");
    snprintf(k->nvrtc, sizeof k->nvrtc, "13.0");
    if (i % 2)
        snprintf(k->template_hash, sizeof k->template_hash,
                 "0123456789abcdef");
    snprintf(en->point, sizeof en->point, "tile64x%d_blk32x8_ept4", 8 << i);
    snprintf(en->params, sizeof en->params, "tile_x=64 tile_y=%d vec=4",
             8 << i);
    en->cubin = cubin_for(sm, (size_t)i % 3, &en->cubin_size);
    en->median_ms = 0.1234567890123456789 * (i + 1);
    en->gbps = 2842.917364518273 / (i + 1);
    en->copy_gbps = 2930.5;
    en->frac_copy = en->gbps / en->copy_gbps;
    en->registers = 27 + i;
    en->shared_bytes = 36636;
    en->local_bytes = i;
    en->seed = 9223372036854775807ULL - (uint64_t)i; /* 2^63 - 1: exact */
    en->tune_seconds = 12.2 + i;
    en->points = 1840 - i;
    snprintf(en->created, sizeof en->created, "2025-03-04T12:%02d:00Z", i);
    en->effort = i % 2 ? AUTOTUNE_MEASURE : AUTOTUNE_EXHAUSTIVE;
    if (i % 2 == 0) /* a profile: times that need all 17 digits */
        snprintf(en->profile, sizeof en->profile,
                 "%.17g tile_x=64 tile_y=%d vec=4\n%.17g tile_x=32 "
                 "tile_y=%d vec=2\n", en->median_ms, 8 << i,
                 en->median_ms * 1.0123456789, 8 << i);
}

/* Two profiles hold the same points and times (the text's number format
 * may differ: the values may not). */
static void assert_same_profile(const char *w, const char *g)
{
    double a, b;
    char pa[256], pb[256];
    int ra, rb;
    do {
        ra = at_profile_next(&w, &a, pa, sizeof pa);
        rb = at_profile_next(&g, &b, pb, sizeof pb);
        assert_int_equal(ra, rb);
        if (ra > 0) {
            assert_true(a == b);
            assert_string_equal(pa, pb);
        }
    } while (ra > 0);
}

static void put(const char *db, const at_entry *en, int replace)
{
    at_cache *c = NULL;
    at_err e = {0};
    assert_int_equal(at_cache_open(&c, db, &e), 0);
    assert_int_equal(at_cache_put(c, en, replace, &e), 0);
    at_cache_close(c);
}

/* Four entries in db: transpose f32 on an H100 (sm_90, exhaustive),
 * transpose f64 on an A100 (sm_80, measure), reduce f32 on an H200
 * (sm_90), transpose f32 on an H200 (sm_90, measure). */
static void fill(const char *db, at_entry en[4])
{
    make_entry(&en[0], 0, "transpose", "f32", "NVIDIA H100 80GB HBM3", 90);
    make_entry(&en[1], 1, "transpose", "f64", "NVIDIA A100-SXM4-80GB", 80);
    make_entry(&en[2], 2, "reduce", "f32", "NVIDIA H200", 90);
    make_entry(&en[3], 3, "transpose", "f32", "NVIDIA H200", 90);
    for (int i = 0; i < 4; ++i)
        put(db, &en[i], 0);
}

static void free_entries(at_entry *en, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        at_entry_free(&en[i]);
}

typedef struct all {
    at_entry en[16];
    size_t n;
} all;

static int collect(const at_entry *en, void *arg)
{
    all *a = arg;
    if (a->n == 16)
        return -1;
    at_entry *c = &a->en[a->n++];
    *c = *en;
    c->cubin = malloc(en->cubin_size);
    assert_non_null(c->cubin);
    memcpy(c->cubin, en->cubin, en->cubin_size);
    return 0;
}

/* Every entry of db, newest first (none if db does not exist). */
static void read_all(const char *db, all *a)
{
    memset(a, 0, sizeof *a);
    if (access(db, F_OK) != 0)
        return;
    at_cache *c = NULL;
    at_err e = {0};
    assert_int_equal(at_cache_open(&c, db, &e), 0);
    assert_int_equal(at_cache_each(c, NULL, collect, a, NULL, &e), 0);
    at_cache_close(c);
}

/* Every field: the whole key, point, cubin, figures, seed, created and
 * effort, doubles bit for bit. */
static void assert_same(const at_entry *w, const at_entry *g)
{
    char kw[2048], kg[2048];
    at_key_text(&w->key, kw, sizeof kw);
    at_key_text(&g->key, kg, sizeof kg);
    assert_string_equal(kg, kw);
    assert_int_equal(g->key.cc, w->key.cc);
    assert_int_equal(g->key.sms, w->key.sms);
    assert_int_equal(g->key.driver, w->key.driver);
    assert_string_equal(g->point, w->point);
    assert_string_equal(g->params, w->params);
    assert_int_equal(g->cubin_size, w->cubin_size);
    assert_memory_equal(g->cubin, w->cubin, w->cubin_size);
    assert_true(g->median_ms == w->median_ms);
    assert_true(g->gbps == w->gbps);
    assert_true(g->copy_gbps == w->copy_gbps);
    assert_true(g->frac_copy == w->frac_copy);
    assert_int_equal(g->registers, w->registers);
    assert_int_equal(g->shared_bytes, w->shared_bytes);
    assert_int_equal(g->local_bytes, w->local_bytes);
    assert_true(g->seed == w->seed);
    assert_true(g->tune_seconds == w->tune_seconds);
    assert_int_equal(g->points, w->points);
    assert_string_equal(g->created, w->created);
    assert_int_equal(g->effort, w->effort ? w->effort : AUTOTUNE_EXHAUSTIVE);
    assert_same_profile(w->profile, g->profile);
}

static void assert_same_all(const all *w, const all *g)
{
    assert_int_equal(g->n, w->n);
    for (size_t i = 0; i < w->n; ++i)
        assert_same(&w->en[i], &g->en[i]);
}

static int rows(const char *db, const char *table)
{
    if (access(db, F_OK) != 0)
        return 0;
    sqlite3 *d = NULL;
    sqlite3_stmt *st = NULL;
    char sql[64];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
    assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(d, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(d);
    return n;
}

/* --- the runtime parts -------------------------------------------- */

/* An ELF64 header as NVCC writes a cubin's: EM_CUDA, the ABI version
 * and e_flags given; 256 bytes, malloc'd. */
static unsigned char *elf_header(int abi, uint32_t flags, uint16_t machine,
                                 size_t *n)
{
    unsigned char *b = calloc(1, 256);
    assert_non_null(b);
    memcpy(b, "\x7f" "ELF", 4);
    b[4] = 2, b[5] = 1, b[6] = 1, b[7] = abi == 8 ? 0x41 : 0x33;
    b[8] = (unsigned char)abi;
    b[16] = 2; /* ET_EXEC */
    b[18] = (unsigned char)machine, b[19] = (unsigned char)(machine >> 8);
    for (int i = 0; i < 4; ++i)
        b[48 + i] = (unsigned char)(flags >> 8 * i);
    *n = 256;
    return b;
}

/* The hash export writes and import checks is the cache's own. */
static void entry_hash_is_the_caches(void **state)
{
    fixture *fx = *state;
    at_entry en;
    make_entry(&en, 1, "transpose", "f64", "NVIDIA A100-SXM4-80GB", 80);
    put(fx->src, &en, 0);
    sqlite3 *d = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open_v2(fx->src, &d, SQLITE_OPEN_READONLY,
                                     NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(d, "SELECT entry_hash FROM wisdom",
                                        -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    char want[17];
    at_cache_entry_hash(en.point, en.params, en.cubin, en.cubin_size, want);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), want);
    sqlite3_finalize(st);
    sqlite3_close(d);
    free_entries(&en, 1);
}

static void cubin_architecture(void **state)
{
    (void)state;
    int sm = 0;
    char why[200];
    assert_int_equal(at_cubin_sm(cubin80, cubin80_n, &sm, why, sizeof why),
                     0);
    assert_int_equal(sm, 80);
    assert_int_equal(at_cubin_sm(cubin90, cubin90_n, &sm, why, sizeof why),
                     0);
    assert_int_equal(sm, 90);
    size_t n;
    /* CUDA 12's layout: the SM in the low byte (sm_75: virtual 75 in
     * bits 16-23, 64-bit addresses 0x400, unified textures 0x100). */
    unsigned char *b = elf_header(7, 75u << 16 | 0x500 | 75, 190, &n);
    assert_int_equal(at_cubin_sm(b, n, &sm, why, sizeof why), 0);
    assert_int_equal(sm, 75);
    free(b);
    b = elf_header(8, 0x06006402, 190, &n); /* nvcc 13, sm_100 */
    assert_int_equal(at_cubin_sm(b, n, &sm, why, sizeof why), 0);
    assert_int_equal(sm, 100);
    free(b);
    b = elf_header(8, 0x06005a04, 62, &n); /* x86-64 */
    assert_int_equal(at_cubin_sm(b, n, &sm, why, sizeof why), -1);
    assert_non_null(strstr(why, "not CUDA"));
    free(b);
    b = elf_header(9, 0x06005a04, 190, &n);
    assert_int_equal(at_cubin_sm(b, n, &sm, why, sizeof why), -1);
    assert_non_null(strstr(why, "ABI version 9"));
    free(b);
    assert_int_equal(at_cubin_sm("hello", 5, &sm, why, sizeof why), -1);
    assert_non_null(strstr(why, "not an ELF image"));
}

/* --- export and import -------------------------------------------- */

static json_t *load_json(const char *path)
{
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j)
        print_error("%s: %s\n", path, je.text);
    assert_non_null(j);
    return j;
}

static void save_json(json_t *j, const char *path)
{
    assert_int_equal(json_dump_file(j, path, JSON_INDENT(1) |
                                    JSON_PRESERVE_ORDER |
                                    JSON_REAL_PRECISION(17)), 0);
}

/* The file validates against docs/schema/wisdom-1.schema.json. */
static void validates(const char *path)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 -c 'import json, sys, "
             "jsonschema; jsonschema.Draft202012Validator(json.load(open("
             "sys.argv[1]))).validate(json.load(open(sys.argv[2])))' "
             "%s/../../docs/schema/wisdom-1.schema.json %s", AT_DATA, path);
    if (system(cmd) != 0)
        fail_msg("%s does not validate (%s)", path, cmd);
}

static void round_trip_with_cubins(void **state)
{
    fixture *fx = *state;
    at_entry en[4];
    fill(fx->src, en);
    RUN(fx, "cache", "export", fx->file, "--cubins", "--cache", fx->src);
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->err, "exported 4 entries with their cubins"));
    validates(fx->file);
    json_t *j = load_json(fx->file);
    assert_string_equal(json_string_value(json_object_get(j, "format")),
                        "autotune.wisdom");
    assert_int_equal(json_integer_value(json_object_get(j, "version")), 1);
    assert_string_equal(json_string_value(json_object_get(j, "autotune")),
                        AUTOTUNE_VERSION);
    assert_int_equal(json_array_size(json_object_get(j, "entries")), 4);
    json_decref(j);

    RUN(fx, "cache", "import", fx->file); /* into $AUTOTUNE_CACHE */
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->out, "imported 4 of 4 entries"));
    CHECK(fx, strstr(fx->out, "entry 1: added transpose f32 rows=4096"));
    /* The hashes are not this build's: said, imported all the same. */
    CHECK(fx, strstr(fx->out, "(sm_90); note: tuned by another build of "
                     "autotune (template hash 0123456789abcdef, this "
                     "build's "));
    /* Entry 4 (i = 0) is this build's: no note. */
    const char *e4 = strstr(fx->out, "entry 4: added transpose f32 rows=1024");
    CHECK(fx, e4 && !strstr(e4, "note"));
    all w, g;
    read_all(fx->src, &w);
    read_all(fx->dst, &g);
    assert_same_all(&w, &g);
    free_entries(g.en, g.n);

    /* Again: every entry there already, the cache as it was. */
    RUN(fx, "cache", "import", fx->file);
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->out, "0 added, 0 replaced, 0 kept (the cache's "
                     "were better), 4 there already"));
    read_all(fx->dst, &g);
    assert_same_all(&w, &g);
    free_entries(g.en, g.n);

    /* Through stdout, filtered: the transpose f32 entries only. */
    RUN(fx, "cache", "export", "-", "--cubins", "--family", "transpose",
        "--type", "f32", "--cache", fx->src);
    CHECK(fx, fx->status == 0);
    json_error_t je;
    j = json_loads(fx->out, 0, &je);
    CHECK(fx, j != NULL);
    assert_int_equal(json_integer_value(json_object_get(j, "count")), 2);
    json_t *e0 = json_array_get(json_object_get(j, "entries"), 0);
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(e0, "key"), "gpu")),
                        "NVIDIA H200");
    assert_string_equal(json_string_value(json_object_get(e0, "effort")),
                        "measure");
    json_decref(j);
    free_entries(w.en, w.n);
    free_entries(en, 4);
}

/* Without --cubins: a file to read, which import refuses whole. */
static void without_cubins_refused(void **state)
{
    fixture *fx = *state;
    at_entry en[4];
    fill(fx->src, en);
    RUN(fx, "cache", "export", fx->file, "--cache", fx->src);
    CHECK(fx, fx->status == 0);
    validates(fx->file);
    json_t *j = load_json(fx->file);
    json_t *e0 = json_array_get(json_object_get(j, "entries"), 0);
    assert_null(json_object_get(e0, "cubin"));
    assert_int_equal(json_integer_value(json_object_get(e0, "cubin_size")),
                     (json_int_t)en[3].cubin_size);
    json_decref(j);
    RUN(fx, "cache", "import", fx->file);
    CHECK(fx, fx->status == 2);
    CHECK(fx, strstr(fx->err, "entry 1 (transpose f32 rows=4096"));
    CHECK(fx, strstr(fx->err, "exported without --cubins"));
    CHECK(fx, strstr(fx->err, "4 of 4 entries refused; nothing imported"));
    CHECK(fx, fx->out[0] == '\0');
    CHECK(fx, access(fx->dst, F_OK) != 0); /* not even made */
    free_entries(en, 4);
}

/* --- rejections --------------------------------------------------- */

static char *b64(const void *data, size_t n)
{
    static const char a[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const unsigned char *p = data;
    char *s = malloc((n + 2) / 3 * 4 + 1), *o = s;
    assert_non_null(s);
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 |
                     (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        *o++ = a[v >> 18 & 63], *o++ = a[v >> 12 & 63];
        *o++ = i + 1 < n ? a[v >> 6 & 63] : '=';
        *o++ = i + 2 < n ? a[v & 63] : '=';
    }
    *o = '\0';
    return s;
}

/* Entry 3 of the export (newest first): transpose f64 on the A100,
 * sm_80. */
static json_t *third(json_t *top)
{
    return json_array_get(json_object_get(top, "entries"), 2);
}

static void set(json_t *o, const char *k, json_t *v)
{
    assert_int_equal(json_object_set_new(o, k, v), 0);
}

static void m_version(json_t *t)
{
    set(t, "version", json_integer(2));
    set(t, "autotune", json_string("9.1.0"));
}
static void m_format(json_t *t) { set(t, "format", json_string("fftw")); }
static void m_count(json_t *t) { set(t, "count", json_integer(5)); }
static void m_hash(json_t *t)
{
    set(third(t), "entry_hash", json_string("0123456789abcdef"));
}
static void m_point(json_t *t)
{
    set(third(t), "point", json_string("tile64x64_blk32x8_ept4"));
}
static void m_arch(json_t *t)
{
    set(json_object_get(third(t), "key"), "sm", json_integer(90));
}
/* The sm_90 cubin where the sm_80 one was, with a hash that matches:
 * only the architecture check can tell. */
static void m_swap(json_t *t)
{
    json_t *e = third(t);
    char hash[17];
    at_cache_entry_hash(json_string_value(json_object_get(e, "point")),
                        json_string_value(json_object_get(e, "params")),
                        cubin90, cubin90_n, hash);
    char *text = b64(cubin90, cubin90_n);
    set(e, "cubin", json_string(text));
    set(e, "cubin_size", json_integer((json_int_t)cubin90_n));
    set(e, "entry_hash", json_string(hash));
    free(text);
}
static void m_no_median(json_t *t)
{
    json_object_del(json_object_get(third(t), "figures"), "median_ms");
}
static void m_no_key(json_t *t) { json_object_del(third(t), "key"); }
static void m_type(json_t *t)
{
    set(json_object_get(third(t), "key"), "sms", json_string("108"));
}
static void m_control(json_t *t)
{
    set(json_object_get(third(t), "key"), "gpu",
        json_string("NVIDIA \x1b[2J A100"));
}
static void m_utf8(json_t *t)
{
    set(third(t), "point", json_string("tile64\xc3\x97" "16"));
}
static void m_negative(json_t *t)
{
    set(json_object_get(third(t), "figures"), "gbps", json_real(-1));
}
static void m_seed(json_t *t) { set(third(t), "seed", json_integer(-5)); }
static void m_no_cubin(json_t *t) { json_object_del(third(t), "cubin"); }
static void m_base64(json_t *t)
{
    set(third(t), "cubin", json_string("QUJD@==="));
}
static void m_effort(json_t *t)
{
    set(third(t), "effort", json_string("fast"));
}
static void m_created(json_t *t)
{
    set(third(t), "created", json_string("yesterday"));
}
static void m_long(json_t *t)
{
    set(json_object_get(third(t), "key"), "driver_build",
        json_string("580.159.04 580.159.04 580.159.04"));
}

static void m_profile(json_t *t)
{
    json_t *p = json_array(), *o = json_object();
    set(o, "ms", json_real(-1));
    set(o, "params", json_string("tile_x=64"));
    json_array_append_new(p, o);
    set(third(t), "profile", p);
}

typedef struct bad_case {
    const char *name;
    void (*mutate)(json_t *top); /* NULL: the file cut in half */
    const char *says, *also;
    int names_entry; /* the message names entry 3 and its problem */
} bad_case;

static const bad_case bad[] = {
    {"newer version", m_version, "wisdom format version 2 (written by "
     "autotune 9.1.0)", "this autotune " AUTOTUNE_VERSION, 0},
    {"not wisdom", m_format, "not an autotune wisdom file", NULL, 0},
    {"truncated", NULL, "not a whole JSON document", "line", 0},
    {"count", m_count, "\"count\" says 5 entries, the file holds 4", NULL,
     0},
    {"bad hash", m_hash, "the hash does not match", "0123456789abcdef", 1},
    {"edited point", m_point, "the hash does not match", NULL, 1},
    {"wrong architecture", m_arch, "is for sm_80, but the key says sm_90",
     NULL, 1},
    {"swapped cubin", m_swap, "is for sm_90, but the key says sm_80", NULL,
     1},
    {"missing field", m_no_median, "figures.median_ms is missing", NULL, 1},
    {"missing key", m_no_key, "entry 3: key is missing", NULL, 0},
    {"wrong type", m_type, "key.sms is not an integer", NULL, 1},
    {"control character", m_control, "key.gpu holds a control character",
     NULL, 1},
    {"not ASCII", m_utf8, "point holds a control character or a byte that "
     "is not ASCII", NULL, 1},
    {"negative figure", m_negative, "figures.gbps is out of range", NULL, 1},
    {"negative seed", m_seed, "seed is out of range", NULL, 1},
    {"no cubin", m_no_cubin, "exported without --cubins", NULL, 1},
    {"not base64", m_base64, "cubin is not base64", NULL, 1},
    {"unknown effort", m_effort, "effort is 'fast'", NULL, 1},
    {"bad time", m_created, "created is not a UTC time", NULL, 1},
    {"bad profile", m_profile, "the profile point 1 is not", NULL, 1},
    {"too long", m_long, "key.driver_build is too long (32 bytes, at most 31)", NULL, 1},
};

/* The target holds an entry of its own; a bad file leaves it exactly so,
 * and says what is wrong and where. */
static void rejected(void **state)
{
    fixture *fx = *state;
    const bad_case *b = fx->arg;
    at_entry en[4], mine;
    fill(fx->src, en);
    make_entry(&mine, 5, "transpose", "f32", "NVIDIA H100 80GB HBM3", 90);
    put(fx->dst, &mine, 0);
    RUN(fx, "cache", "export", fx->file, "--cubins", "--cache", fx->src);
    CHECK(fx, fx->status == 0);
    if (b->mutate) {
        json_t *j = load_json(fx->file);
        b->mutate(j);
        save_json(j, fx->file);
        json_decref(j);
    } else {
        struct stat st;
        assert_int_equal(stat(fx->file, &st), 0);
        assert_int_equal(truncate(fx->file, st.st_size / 2), 0);
    }
    all before, after;
    read_all(fx->dst, &before);
    RUN(fx, "cache", "import", fx->file);
    CHECK(fx, fx->status == 2);
    CHECK(fx, fx->out[0] == '\0');
    CHECK(fx, strstr(fx->err, b->says));
    CHECK(fx, !b->also || strstr(fx->err, b->also));
    CHECK(fx, !b->names_entry ||
                  strstr(fx->err, "entry 3 (transpose f64 rows=2048 "));
    read_all(fx->dst, &after);
    assert_same_all(&before, &after);
    assert_int_equal(rows(fx->dst, "wisdom"), 1);
    free_entries(before.en, before.n);
    free_entries(after.en, after.n);
    free_entries(&mine, 1);
    free_entries(en, 4);
}

/* --- the cache's better entry stays ------------------------------- */

/* The wisdom file holds en alone. */
static void export_one(fixture *fx, const at_entry *en)
{
    remove(fx->src);
    put(fx->src, en, 0);
    RUN(fx, "cache", "export", fx->file, "--cubins", "--cache", fx->src);
    CHECK(fx, fx->status == 0);
}

static void stored_median(const fixture *fx, double ms, int effort)
{
    all g;
    read_all(fx->dst, &g);
    assert_int_equal(g.n, 1);
    assert_true(g.en[0].median_ms == ms);
    assert_int_equal(g.en[0].effort, effort);
    free_entries(g.en, g.n);
}

static void better_entry_kept(void **state)
{
    fixture *fx = *state;
    at_entry old, en;
    make_entry(&old, 0, "transpose", "f32", "NVIDIA H100 80GB HBM3", 90);
    old.median_ms = 0.1; /* exhaustive */
    put(fx->dst, &old, 0);
    make_entry(&en, 0, "transpose", "f32", "NVIDIA H100 80GB HBM3", 90);

    /* Faster, but from a budgeted search: the exhaustive one stays. */
    en.effort = AUTOTUNE_MEASURE;
    en.median_ms = 0.05;
    export_one(fx, &en);
    RUN(fx, "cache", "import", fx->file);
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->out, "entry 1: kept the cache's entry for "
                     "transpose f32 rows=1024 "));
    CHECK(fx, strstr(fx->out, ": it was found at higher effort "
                     "(exhaustive; this one measure); --force replaces"));
    stored_median(fx, 0.1, AUTOTUNE_EXHAUSTIVE);

    /* Same effort, slower: kept. */
    en.effort = AUTOTUNE_EXHAUSTIVE;
    en.median_ms = 0.2;
    export_one(fx, &en);
    RUN(fx, "cache", "import", fx->file);
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->out, ": it is as fast or faster (0.1 ms; this one "
                     "0.2 ms)"));
    CHECK(fx, strstr(fx->out, "1 kept"));
    stored_median(fx, 0.1, AUTOTUNE_EXHAUSTIVE);

    /* Same effort, faster: replaced. */
    en.median_ms = 0.08;
    export_one(fx, &en);
    RUN(fx, "cache", "import", fx->file);
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->out, "entry 1: replaced the cache's entry for "
                     "transpose f32"));
    stored_median(fx, 0.08, AUTOTUNE_EXHAUSTIVE);

    /* --force: the measured one replaces the exhaustive one. */
    en.effort = AUTOTUNE_MEASURE;
    en.median_ms = 0.3;
    export_one(fx, &en);
    RUN(fx, "cache", "import", fx->file, "--force");
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->out, "replaced the cache's entry"));
    stored_median(fx, 0.3, AUTOTUNE_MEASURE);
    free_entries(&old, 1);
    free_entries(&en, 1);
}

/* --- remove, clear, list, show ------------------------------------ */

static int has_key(const all *a, const at_entry *en)
{
    char k1[2048], k2[2048];
    at_key_text(&en->key, k1, sizeof k1);
    for (size_t i = 0; i < a->n; ++i) {
        at_key_text(&a->en[i].key, k2, sizeof k2);
        if (strcmp(k1, k2) == 0)
            return 1;
    }
    return 0;
}

static void remove_with_filters(void **state)
{
    fixture *fx = *state;
    at_entry en[4];
    fill(fx->dst, en);
    RUN(fx, "cache", "remove");
    CHECK(fx, fx->status == 2);
    CHECK(fx, strstr(fx->err, "use clear"));
    assert_int_equal(rows(fx->dst, "wisdom"), 4);

    RUN(fx, "cache", "remove", "--type", "f64");
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->out, "removed transpose f64 rows=2048 "));
    CHECK(fx, strstr(fx->out, "removed 1 entry from"));
    all g;
    read_all(fx->dst, &g);
    assert_int_equal(g.n, 3);
    assert_false(has_key(&g, &en[1]));
    free_entries(g.en, g.n);

    /* The H200 has a transpose entry too: only the reduction goes. */
    RUN(fx, "cache", "remove", "--gpu", "H200", "--family", "reduce",
        "--sm", "sm_90");
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->out, "removed 1 entry from"));
    read_all(fx->dst, &g);
    assert_int_equal(g.n, 2);
    assert_false(has_key(&g, &en[2]));
    free_entries(g.en, g.n);

    /* By list's index: 1 is the newest, the H200's transpose. */
    RUN(fx, "cache", "remove", "1");
    CHECK(fx, fx->status == 0);
    read_all(fx->dst, &g);
    assert_int_equal(g.n, 1);
    assert_true(has_key(&g, &en[0]));
    free_entries(g.en, g.n);

    RUN(fx, "cache", "remove", "--sm", "80");
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->out, "removed 0 entries"));
    assert_int_equal(rows(fx->dst, "wisdom"), 1);
    free_entries(en, 4);
}

static void clear_all(void **state)
{
    fixture *fx = *state;
    at_entry en[4];
    fill(fx->dst, en);
    at_cache *c = NULL;
    at_err e = {0};
    assert_int_equal(at_cache_open(&c, fx->dst, &e), 0);
    assert_int_equal(at_cache_failed_put(c, &en[0].key, "p1", "fault", &e),
                     0);
    assert_int_equal(at_cache_failed_put(c, &en[1].key, "p2", "hang", &e),
                     0);
    at_cache_close(c);
    RUN(fx, "cache", "clear");
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->out, "removed 4 entries and 2 failed variants"));
    assert_int_equal(rows(fx->dst, "wisdom"), 0);
    assert_int_equal(rows(fx->dst, "failed"), 0);
    free_entries(en, 4);
}

/* The line of list's output holding text, or NULL. */
static const char *line_with(const char *out, const char *text)
{
    const char *p = strstr(out, text);
    if (!p)
        return NULL;
    while (p > out && p[-1] != '\n')
        --p;
    return p;
}

static void list_and_show(void **state)
{
    fixture *fx = *state;
    at_entry en[4];
    fill(fx->dst, en);
    RUN(fx, "cache", "list");
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->out, "family"));
    CHECK(fx, strstr(fx->out, "4 entries in"));
    /* Newest first: the H200's transpose (12:03), numbered 1. */
    const char *l = line_with(fx->out, "2025-03-04T12:03:00Z");
    CHECK(fx, l && strncmp(l, "  1  transpose  f32   sm_90   measure", 37)
                       == 0);
    l = line_with(fx->out, "NVIDIA H100 80GB HBM3");
    CHECK(fx, l && strstr(l, "  4  transpose  f32   sm_90   exhaustive"));
    CHECK(fx, l && strstr(l, "2842.9  97.0%"));
    CHECK(fx, l && strstr(l, "tile64x8_blk32x8_ept4"));
    CHECK(fx, l && strstr(l, "rows=1024 cols=4096"));

    RUN(fx, "cache", "list", "--family", "transpose", "--type", "f32");
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->out, "2 entries in"));
    /* Filters keep list's numbers: the A100's entry is 3 either way. */
    RUN(fx, "cache", "list", "--gpu", "a100");
    CHECK(fx, strstr(fx->out, "1 entry in"));
    CHECK(fx, strstr(fx->out, "\n  3  transpose  f64   sm_80   measure"));
    RUN(fx, "cache", "show", "--type", "f64");
    CHECK(fx, strncmp(fx->out, "entry 3\n", 8) == 0);
    RUN(fx, "cache", "show", "3", "--type", "f32");
    CHECK(fx, fx->status == 1);

    RUN(fx, "cache", "list", "--json", "--sm", "90");
    CHECK(fx, fx->status == 0);
    json_error_t je;
    json_t *j = json_loads(fx->out, 0, &je);
    CHECK(fx, j != NULL);
    assert_string_equal(json_string_value(json_object_get(j, "schema")),
                        "autotune.cache/1");
    assert_int_equal(json_integer_value(json_object_get(j, "count")), 3);
    json_t *e2 = json_array_get(json_object_get(j, "entries"), 1);
    assert_int_equal(json_integer_value(json_object_get(e2, "index")), 2);
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(e2, "key"), "family")),
                        "reduce");
    assert_null(json_object_get(e2, "cubin"));
    json_decref(j);
    /* It validates against docs/schema/cache.schema.json (issue 35). */
    char listed[600], cmd[1400];
    snprintf(listed, sizeof listed, "%s/listed.json", fx->dir);
    FILE *lf = fopen(listed, "w");
    assert_non_null(lf);
    fputs(fx->out, lf);
    fclose(lf);
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s/../validate_json.py "
             "%s/../../docs/schema %s", AT_DATA, AT_DATA, listed);
    if (system(cmd) != 0)
        fail_msg("cache list --json does not validate (%s)", cmd);

    RUN(fx, "cache", "show", "2");
    CHECK(fx, fx->status == 0);
    char hash[17], size[64];
    at_cache_entry_hash(en[2].point, en[2].params, en[2].cubin,
                        en[2].cubin_size, hash);
    snprintf(size, sizeof size, "%zu bytes, sm_90 by its ELF header, "
             "entry hash %s", en[2].cubin_size, hash);
    CHECK(fx, strstr(fx->out, "entry 2\n  family        reduce\n"));
    CHECK(fx, strstr(fx->out, size));
    CHECK(fx, strstr(fx->out, "seed 9223372036854775805"));
    char space[64];
    snprintf(space, sizeof space, "space hash    %s", en[2].key.space_hash);
    CHECK(fx, strstr(fx->out, space));

    RUN(fx, "cache", "show", "--gpu", "V100");
    CHECK(fx, fx->status == 1);
    CHECK(fx, strstr(fx->err, "no entry in"));
    /* --json answers alike: the same status, an error object. */
    RUN(fx, "cache", "show", "--gpu", "V100", "--json");
    CHECK(fx, fx->status == 1);
    CHECK(fx, strstr(fx->out, "autotune.error/1"));
    RUN(fx, "cache", "list", "--force");
    CHECK(fx, fx->status == 2);
    CHECK(fx, strstr(fx->err, "cache list does not take '--force'"));
    RUN(fx, "cache", "frob");
    CHECK(fx, fx->status == 2);
    CHECK(fx, strstr(fx->err, "unknown cache command 'frob'"));
    free_entries(en, 4);
}

/* An import killed at any moment leaves the cache with all of the
 * file's entries or none, and whole (issue 35: signals during import). */
static void import_killed_all_or_nothing(void **state)
{
    fixture *fx = *state;
    at_entry en[4];
    fill(fx->src, en);
    free_entries(en, 4);
    RUN(fx, "cache", "export", fx->file, "--cubins", "--cache", fx->src);
    CHECK(fx, fx->status == 0);
    int none = 0, every = 0;
    for (int trial = 0; trial < 40; ++trial) {
        unlink(fx->dst);
        char side[128];
        snprintf(side, sizeof side, "%s-wal", fx->dst);
        unlink(side);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            char cache[128];
            snprintf(cache, sizeof cache, "AUTOTUNE_CACHE=%s", fx->dst);
            char *argv[] = {cli_bin, "cache", "import", fx->file, NULL};
            char *env[] = {cache, "AUTOTUNE_LIBCUDA=/nonexistent", NULL};
            int null = open("/dev/null", O_WRONLY);
            dup2(null, 1);
            dup2(null, 2);
            execve(cli_bin, argv, env);
            _exit(127);
        }
        usleep((useconds_t)(trial * 1500)); /* 0 to 58 ms in */
        kill(pid, trial % 2 ? SIGKILL : SIGINT);
        int ws;
        assert_int_equal(waitpid(pid, &ws, 0), pid);
        all got;
        read_all(fx->dst, &got);
        if (got.n != 0 && got.n != 4)
            fail_msg("trial %d: %zu of 4 entries after the kill", trial,
                     got.n);
        none += got.n == 0;
        every += got.n == 4;
        free_entries(got.en, got.n);
        if (access(fx->dst, F_OK) == 0) {
            sqlite3 *db;
            sqlite3_stmt *st;
            assert_int_equal(sqlite3_open(fx->dst, &db), SQLITE_OK);
            assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check",
                                                -1, &st, NULL), SQLITE_OK);
            assert_int_equal(sqlite3_step(st), SQLITE_ROW);
            assert_string_equal((const char *)sqlite3_column_text(st, 0),
                                "ok");
            sqlite3_finalize(st);
            sqlite3_close(db);
        }
    }
    /* Both ends were reached: the kills fell before and after commit. */
    print_message("# %d trials with none, %d with all 4\n", none, every);
    assert_true(none > 0 && every > 0);
}

/* --- main --------------------------------------------------------- */

/* The sm_80 and sm_90 cubins: NVRTC's if it loads, else headers. */
static void make_cubins(void)
{
    at_err e = {0};
    const char *src = "extern \"C\" __global__ void k(int *p) "
                      "{ p[threadIdx.x] = 1; }";
    at_compile_opts o80 = {.sm = 80}, o90 = {.sm = 90};
    if (at_nvrtc_load(&e) == 0 &&
        at_compile(src, "k80", &o80, (void **)&cubin80, &cubin80_n, &e) ==
            0 &&
        at_compile(src, "k90", &o90, (void **)&cubin90, &cubin90_n, &e) ==
            0) {
        real_cubins = 1;
        return;
    }
    free(cubin80);
    cubin80 = elf_header(8, 0x06005004, 190, &cubin80_n);
    cubin90 = elf_header(8, 0x06005a04, 190, &cubin90_n);
}

#define TEST(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
#define BAD(i) {bad[i].name, rejected, setup, teardown, (void *)&bad[i]}

int main(void)
{
    const char *bin = getenv("AUTOTUNE_BIN");
    if (!bin)
        return at_skip_all("AUTOTUNE_BIN not set");
    cli_bin = realpath(bin, NULL);
    if (!cli_bin) {
        printf("Bail out! AUTOTUNE_BIN=%s: %s\n", bin, strerror(errno));
        return 1;
    }
    make_cubins();
    printf("# cubins: %s\n", real_cubins ? "NVRTC's, for sm_80 and sm_90"
                                         : "ELF headers (no NVRTC)");
    _Static_assert(sizeof bad / sizeof bad[0] == 21, "a BAD() per case");
    const struct CMUnitTest tests[] = {
        TEST(entry_hash_is_the_caches),
        TEST(cubin_architecture),
        TEST(round_trip_with_cubins),
        TEST(without_cubins_refused),
        BAD(0),  BAD(1),  BAD(2),  BAD(3),  BAD(4),  BAD(5),  BAD(6),
        BAD(7),  BAD(8),  BAD(9),  BAD(10), BAD(11), BAD(12), BAD(13),
        BAD(14), BAD(15), BAD(16), BAD(17), BAD(18), BAD(19), BAD(20),
        TEST(better_entry_kept),
        TEST(remove_with_filters),
        TEST(clear_all),
        TEST(list_and_show),
        TEST(import_killed_all_or_nothing),
    };
    int rc = AT_RUN_TESTS(tests);
    free(cubin80);
    free(cubin90);
    free(cli_bin);
    return rc;
}
