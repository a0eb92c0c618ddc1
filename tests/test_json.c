/* --json loses nothing: every kind of output (tune on every path that runs
 * without a GPU, space, replay, errors; tune and bench from a GPU run,
 * kept in tests/data/json/) validates against its schema in docs/schema/,
 * and boundary values come back exactly: sizes 4194304, 16777217,
 * 2^31 - 1 and 2^53 + 1, the largest seed (2^63 - 1), and timings with 17
 * significant digits. */
#include "test_problem.h"
#include "tap.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/pcg.h"
#include "gen/family.h"
#include "runtime/store/store.h"

static char dir[] = "/tmp/at-json-XXXXXX";
static const char *cli_bin;
static int n_out; /* outputs written, for their file names */

/* Runs the CLI (no driver, the test's own cache) with args; its stdout in
 * a file whose path is written to path. Returns the exit status. */
static int run(const char *const *args, char *path, size_t n)
{
    char *argv[32];
    int na = 0;
    argv[na++] = (char *)cli_bin;
    for (int i = 0; args[i] && na < 31; ++i)
        argv[na++] = (char *)args[i];
    argv[na] = NULL;
    snprintf(path, n, "%s/out%d.json", dir, n_out++);
    char cache[128], home[128];
    snprintf(cache, sizeof cache, "AUTOTUNE_CACHE=%s/cache.db", dir);
    snprintf(home, sizeof home, "HOME=%s", dir);
    char *env[] = {cache, home, "AUTOTUNE_LIBCUDA=/nonexistent/libcuda.so.1",
                   "ASAN_OPTIONS=detect_leaks=1", NULL};
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (!freopen(path, "w", stdout) || !freopen("/dev/null", "w", stderr)
            || chdir(dir) != 0)
            _exit(126);
        execve(cli_bin, argv, env);
        _exit(127);
    }
    int ws;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/* The file validates against its schema (tests/validate_json.py). */
static void validates(const char *path)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s/../validate_json.py "
             "%s/../../docs/schema %s", AT_DATA, AT_DATA, path);
    if (system(cmd) != 0)
        fail_msg("%s does not validate (%s)", path, cmd);
}

static json_t *load(const char *path)
{
    json_error_t err;
    json_t *j = json_load_file(path, 0, &err);
    if (!j)
        fail_msg("%s: line %d: %s", path, err.line, err.text);
    return j;
}

static json_int_t int_at(json_t *o, const char *obj, const char *k)
{
    json_t *parent = obj ? json_object_get(o, obj) : o;
    json_t *v = json_object_get(parent, k);
    if (!json_is_integer(v))
        fail_msg("%s%s%s is not an integer", obj ? obj : "", obj ? "." : "",
                 k);
    return json_integer_value(v);
}

static const char *str_at(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    if (!json_is_string(v))
        fail_msg("%s is not a string", k);
    return json_string_value(v);
}

/* The command without a GPU: sizes and strides exact, and the
 * default point's figures null with their reason. */
static void default_point_sizes_exact(void **state)
{
    (void)state;
    char path[256];
    assert_int_equal(run((const char *[]){"transpose", "--arch", "sm_90",
                                          "--rows", "4", "--cols", "4194304",
                                          "--json", "--quiet", NULL},
                         path, sizeof path),
                     0);
    validates(path);
    json_t *j = load(path);
    assert_string_equal(str_at(j, "schema"), "autotune.tune/1");
    assert_int_equal(int_at(j, "fields", "cols"), 4194304);
    assert_int_equal(int_at(j, "fields", "ld_in"), 4194304);
    assert_int_equal(int_at(j, "fields", "stride_in"), 16777216);
    assert_int_equal(int_at(j, "fields", "stride_out"), 16777216);
    assert_string_equal(str_at(j, "how"), "default");
    assert_true(json_is_false(json_object_get(j, "tuned")));
    assert_non_null(strstr(str_at(j, "reason"), "no CUDA driver"));
    assert_true(json_is_null(json_object_get(j, "median_ms")));
    assert_non_null(json_object_get(j, "median_ms_note"));
    json_decref(j);
}

/* A path that is not UTF-8 still gives valid JSON, its other bytes as
 * '?'. */
static void non_utf8_text(void **state)
{
    (void)state;
    char path[256];
    assert_int_equal(run((const char *[]){"transpose", "--arch", "sm_90",
                                          "--rows", "64", "--cols", "64",
                                          "-o", "t\xff.cu", "--json",
                                          "--quiet", NULL},
                         path, sizeof path),
                     0);
    validates(path);
    json_t *j = load(path);
    assert_string_equal(str_at(j, "output"), "t?.cu");
    json_decref(j);
}

/* Sizes past a float's and a double's exact range. */
static void large_sizes_exact(void **state)
{
    (void)state;
    char path[256];
    assert_int_equal(run((const char *[]){"transpose", "--arch", "sm_90",
                                          "--rows", "1", "--cols", "16777217",
                                          "--ld-in", "9007199254740993",
                                          "--json", "--quiet", NULL},
                         path, sizeof path),
                     0);
    validates(path);
    json_t *j = load(path);
    assert_int_equal(int_at(j, "fields", "cols"), 16777217);
    assert_int_equal(int_at(j, "fields", "ld_in"), 9007199254740993LL);
    json_decref(j);
    assert_int_equal(run((const char *[]){"transpose", "--arch", "sm_90",
                                          "--rows", "2147483647", "--cols",
                                          "1", "--json", "--quiet", NULL},
                         path, sizeof path),
                     0);
    validates(path);
    j = load(path);
    assert_int_equal(int_at(j, "fields", "rows"), 2147483647);
    assert_int_equal(int_at(j, "fields", "stride_out"), 2147483647);
    json_decref(j);
}

/* An entry in the test's cache, for emission without a GPU to find: its
 * timings have 17 significant digits, its seed is the largest. */
static const double median = 0.12345678901234568, gbps = 1234.5678901234567;

static void put_entry(int64_t rows, int64_t cols)
{
    test_problem u = {"transpose", "f32", rows, cols};
    at_problem p;
    at_limits l;
    at_key k;
    at_entry en;
    at_cache *c;
    at_err e = {0};
    char path[128];
    assert_int_equal(test_problem_make(&p, &u, &e), 0);
    assert_true(at_limits_for_arch(90, &l));
    assert_int_equal(at_key_fill(&k, NULL, &p, &l, &e), 0);
    snprintf(k.gpu, sizeof k.gpu, "Test GPU");
    memset(&en, 0, sizeof en);
    en.key = k;
    at_point pt;
    p.family->ops.default_point(&p, 90, &pt);
    p.family->ops.point_name(p.family, &pt, en.point, sizeof en.point);
    at_point_params(p.family, &pt, en.params, sizeof en.params);
    static unsigned char cubin[64] = {1, 2, 3};
    en.cubin = cubin;
    en.cubin_size = sizeof cubin;
    en.median_ms = median;
    en.gbps = gbps;
    en.copy_gbps = 3000.0000000000005;
    en.frac_copy = gbps / en.copy_gbps;
    en.seed = AT_SEED_MAX;
    snprintf(en.created, sizeof en.created, "2026-11-23T00:00:00Z");
    snprintf(path, sizeof path, "%s/cache.db", dir);
    assert_int_equal(at_cache_open(&c, path, &e), 0);
    assert_int_equal(at_cache_put(c, &en, 1, &e), 0);
    at_cache_close(c);
}

static void cached_figures_exact(void **state)
{
    (void)state;
    put_entry(65, 67); /* no strips: the default tile is valid */
    char path[256];
    assert_int_equal(run((const char *[]){"transpose", "--arch", "sm_90",
                                          "--rows", "65", "--cols", "67",
                                          "--json", "--quiet", NULL},
                         path, sizeof path),
                     0);
    validates(path);
    json_t *j = load(path);
    assert_string_equal(str_at(j, "how"), "cached");
    assert_string_equal(str_at(j, "gpu"), "Test GPU");
    assert_true(json_is_true(json_object_get(j, "tuned")));
    assert_int_equal(int_at(j, NULL, "seed"), (json_int_t)AT_SEED_MAX);
    /* Bit for bit: the text read back is the same double. */
    double got = json_real_value(json_object_get(j, "median_ms"));
    assert_memory_equal(&got, &median, sizeof got);
    got = json_real_value(json_object_get(j, "gbps"));
    assert_memory_equal(&got, &gbps, sizeof got);
    json_decref(j);
}

static void space_and_replay(void **state)
{
    (void)state;
    char path[256], rec[512];
    assert_int_equal(run((const char *[]){"space", "transpose", "--type",
                                          "f64", "--json", NULL},
                         path, sizeof path),
                     0);
    validates(path);
    json_t *j = load(path);
    assert_int_equal(json_array_size(json_object_get(j, "points")),
                     int_at(j, NULL, "points_after_constraints"));
    json_decref(j);
    snprintf(rec, sizeof rec, "%s/h100-transpose-f32-8192x8192.csv",
             AT_DATA);
    assert_int_equal(run((const char *[]){"replay", rec, "--json", "--seeds",
                                          "2", NULL},
                         path, sizeof path),
                     0);
    validates(path);
    j = load(path);
    assert_int_equal(json_array_size(json_object_get(j, "strategies")), 4);
    assert_int_equal(int_at(j, NULL, "space_size"), 2480);
    json_decref(j);
}

/* Failures answer with an object too, the exit status unchanged. */
static void errors_as_json(void **state)
{
    (void)state;
    char path[256];
    assert_int_equal(run((const char *[]){"transpose", "--rows", "0",
                                          "--json", NULL},
                         path, sizeof path),
                     2);
    validates(path);
    json_t *j = load(path);
    assert_int_equal(int_at(j, NULL, "status"), 2);
    assert_string_equal(str_at(j, "error"), "usage");
    assert_non_null(strstr(str_at(j, "message"), "--rows"));
    json_decref(j);
    assert_int_equal(run((const char *[]){"transpose", "--arch", "auto",
                                          "--json", NULL},
                         path, sizeof path),
                     1);
    validates(path);
    j = load(path);
    assert_int_equal(int_at(j, NULL, "code"), AUTOTUNE_ENO_DRIVER);
    assert_string_equal(str_at(j, "code_name"), "AUTOTUNE_ENO_DRIVER");
    json_decref(j);
}

/* What only a GPU produces, kept from a run: a tune and a benchmark. */
static void gpu_outputs_validate(void **state)
{
    (void)state;
    const char *names[] = {"tune-h100-4x4194304.json", "bench-h100.json"};
    for (size_t i = 0; i < sizeof names / sizeof *names; ++i) {
        char path[512];
        snprintf(path, sizeof path, "%s/json/%s", AT_DATA, names[i]);
        validates(path);
    }
    char path[512];
    snprintf(path, sizeof path, "%s/json/tune-h100-4x4194304.json", AT_DATA);
    json_t *j = load(path);
    assert_string_equal(str_at(j, "how"), "tuned");
    assert_int_equal(int_at(j, "fields", "cols"), 4194304);
    assert_int_equal(int_at(j, "fields", "stride_in"), 16777216);
    json_decref(j);
}

int main(void)
{
    cli_bin = getenv("AUTOTUNE_BIN");
    if (!cli_bin || access(cli_bin, X_OK) != 0)
        return at_skip_all("AUTOTUNE_BIN (the CLI under test) not set");
    if (access("/usr/bin/python3", X_OK) != 0)
        return at_skip_all("no /usr/bin/python3 for the schema check "
                           "(apt-get install python3-jsonschema)");
    if (!mkdtemp(dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(default_point_sizes_exact),
        cmocka_unit_test(large_sizes_exact),
        cmocka_unit_test(non_utf8_text),
        cmocka_unit_test(cached_figures_exact),
        cmocka_unit_test(space_and_replay),
        cmocka_unit_test(errors_as_json),
        cmocka_unit_test(gpu_outputs_validate),
    };
    int rc = AT_RUN_TESTS(tests);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}
