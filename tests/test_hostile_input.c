/* Issue 35's rows (docs/RELIABILITY.md, "Specs, caches, outputs and the
 * command line"): what a user hands autotune, tried as an attacker
 * would, each answered with one clear line, an exit status from 1 to
 * 127, nothing written and nothing overwritten. Each case failed on the
 * main of 2026-11-25. Rows 7 and 10 are test_help and test_effort's. */
#include "cli_shell.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char dir[64];
static char out[65536];

static const char kernel_src[] =
    "extern \"C\" __global__ void vadd(float *c, const float *a, int n)\n"
    "{\n"
    "    int i = (blockIdx.x * block_size_x + threadIdx.x) * tile;\n"
    "    for (int k = 0; k < tile; ++k)\n"
    "        if (i + k < n) c[i + k] = a[i + k] + 1.0f;\n"
    "}\n"
    "extern \"C\" __global__ void vadd_ref(float *c, const float *a, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) c[i] = a[i] + 1.0f;\n"
    "}\n";

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/at-hostile-in-XXXXXX");
    return at_tmpdir_make(dir);
}

static int teardown(void **state)
{
    (void)state;
    return at_tmpdir_remove(dir);
}

static int cli(const char *args)
{
    return at_cli_shell(dir, "AUTOTUNE_REL", args, out, sizeof out);
}

static void put(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A spec of vadd in dir/name: the parameters, then what else is given
 * (launch keys after grid_div_x, n's value, top-level lines at its end). */
static void spec(const char *name, const char *params, const char *launch,
                 const char *n_value, const char *tail)
{
    char text[4096];
    snprintf(text, sizeof text,
             "autotune_spec: 1\n"
             "kernel: {name: vadd, source: vadd.cu}\n"
             "problem: {size: [1048576]}\n"
             "tune_params:\n%s"
             "launch:\n  grid_div_x: [block_size_x, tile]\n%s"
             "arguments:\n"
             "  - {name: c, type: f32, count: size_x, dir: out}\n"
             "  - {name: a, type: f32, count: size_x}\n"
             "  - {name: n, type: i32, value: %s}\n"
             "verify: {reference_kernel: vadd_ref}\n%s",
             params, launch, n_value, tail);
    put("vadd.cu", kernel_src);
    put(name, text);
}

static const char *const good_params =
    "  block_size_x: [64, 128]\n  tile: [1, 2]\n";

static int exists(const char *name)
{
    char path[256];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0;
}

/* One line (its newline the only one), as every error is. */
static int one_line(const char *s)
{
    const char *nl = strchr(s, '\n');
    return nl && nl[1] == '\0';
}

/* Row 1: points that cannot launch are not in the space; a space they
 * empty is an error naming the check, for space and kernel alike. */
static void unlaunchable_points(void **state)
{
    (void)state;
    static const struct {
        const char *params, *launch, *n, *says;
    } c[] = {
        {"  block_size_x: [0]\n  tile: [1]\n", "", "size_x", "block.x"},
        {"  block_size_x: [-64]\n  tile: [1]\n", "", "size_x", "block.x"},
        {"  block_size_x: [64]\n  tile: [1]\n",
         "  block: [block_size_x * 1000000]\n", "size_x", "block.x"},
        {"  block_size_x: [64]\n  tile: [1]\n", "  shared_memory: -1\n",
         "size_x", "shared memory"},
        {"  block_size_x: [64]\n  tile: [1]\n",
         "  shared_memory: 1000000000000\n", "size_x", "shared memory"},
        {"  block_size_x: [64]\n  tile: [1]\n", "", "4294967296",
         "argument n"},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; ++i) {
        spec("r1.yaml", c[i].params, c[i].launch, c[i].n, "");
        const char *runs[] = {"space r1.yaml",
                              "kernel r1.yaml --arch sm_90 -o r1.cu"};
        for (int r = 0; r < 2; ++r) {
            int st = cli(runs[r]);
            if (st != 1 || !strstr(out, c[i].says) || !one_line(out) ||
                !strstr(out, "removed the most"))
                fail_msg("case %zu, %s: status %d: %s", i, runs[r], st, out);
        }
        assert_false(exists("r1.cu"));
    }
    /* The valid points of a mixed space stay; the others are left out. */
    spec("r1.yaml", "  block_size_x: [0, 64, 2048]\n  tile: [1]\n", "",
         "size_x", "");
    assert_int_equal(cli("space r1.yaml"), 0);
    assert_non_null(strstr(out, "3 before constraints, 1 after"));
}

/* Row 2: a file that is not our cache is refused byte for byte
 * unchanged, whatever its tables are called. */
static void foreign_cache_untouched(void **state)
{
    (void)state;
    char path[256], before[8192], after[8192];
    snprintf(path, sizeof path, "%s/wis.db", dir);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "CREATE TABLE wisdom(foo); INSERT INTO"
                                  " wisdom VALUES(1);", 0, 0, 0), SQLITE_OK);
    sqlite3_close(db);
    size_t n = at_read_in(dir, "wis.db", before, sizeof before);
    char args[400];
    snprintf(args, sizeof args, "cache list --cache %s", path);
    assert_int_equal(cli(args), 1);
    assert_non_null(strstr(out, "not an autotune database"));
    assert_int_equal(at_read_in(dir, "wis.db", after, sizeof after), n);
    assert_memory_equal(before, after, n);
    assert_false(exists("wis.db-wal"));
}

/* Row 3: paths in a spec stay in its folder. */
static void spec_paths_stay_inside(void **state)
{
    (void)state;
    const char *sources[] = {"/etc/passwd", "../vadd.cu", "link.cu"};
    const char *says[] = {"absolute path", "leads out", "leads out"};
    char cmd[300];
    put("vadd.cu", kernel_src); /* the spec is in sub/: ../ leads out */
    snprintf(cmd, sizeof cmd, "mkdir -p %s/sub && ln -sf /etc/passwd "
             "%s/sub/link.cu", dir, dir);
    assert_int_equal(system(cmd), 0);
    for (int i = 0; i < 3; ++i) {
        char text[1024];
        snprintf(text, sizeof text, "autotune_spec: 1\nkernel: {name: vadd, "
                 "source: '%s'}\nproblem: {size: [64]}\ntune_params: "
                 "{block_size_x: [64]}\narguments:\n  - {name: c, type: f32,"
                 " count: size_x, dir: out}\n", sources[i]);
        put("sub/p.yaml", text);
        assert_int_equal(cli("kernel sub/p.yaml --arch sm_90 -o p.cu"), 2);
        if (!strstr(out, says[i]))
            fail_msg("%s: %s", sources[i], out);
        assert_false(exists("p.cu"));
    }
}

/* Row 4: nesting is bounded, whatever the file's size. */
static void deep_nesting_is_quick(void **state)
{
    (void)state;
    size_t n = 200000;
    char *text = malloc(2 * n + 2);
    memset(text, '[', n);
    memset(text + n, ']', n);
    text[2 * n] = '\n';
    text[2 * n + 1] = '\0';
    put("deep.yaml", text);
    free(text);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(cli("space deep.yaml"), 2);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) +
               (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    assert_non_null(strstr(out, "nested more than 64 deep"));
    if (s > 1.0)
        fail_msg("took %.2f s", s);
}

/* Row 5: an output that is an input is refused; the input stays. */
static void outputs_never_on_inputs(void **state)
{
    (void)state;
    spec("s.yaml", good_params, "", "size_x", "");
    assert_int_equal(cli("transpose --arch sm_90 -o t.cu"), 0); /* a cache */
    const char *runs[] = {
        "kernel s.yaml --arch sm_90 -o vadd.cu",
        "kernel s.yaml --arch sm_90 -o s.yaml",
        "kernel s.yaml --arch sm_90 -o c.db",
        "kernel s.yaml --arch sm_90 -o ./c-cubins.db",
        "cache export c.db",
        "transpose --arch sm_90 -o x.cu --record x.cu",
    };
    const char *kept[] = {"vadd.cu", "s.yaml", "c.db", "c-cubins.db"};
    char before[4][4096], after[4096];
    size_t n[4];
    for (int k = 0; k < 4; ++k)
        n[k] = at_read_in(dir, kept[k], before[k], sizeof before[k]);
    for (size_t i = 0; i < sizeof runs / sizeof *runs; ++i) {
        int st = cli(runs[i]);
        if (st != 2 || !one_line(out))
            fail_msg("%s: status %d: %s", runs[i], st, out);
    }
    for (int k = 0; k < 4; ++k) {
        assert_int_equal(at_read_in(dir, kept[k], after, sizeof after), n[k]);
        assert_memory_equal(before[k], after, n[k]);
    }
    assert_false(exists("x.cu"));
}

/* Row 6: output lost on the way to stdout is a failure, said. */
static void stdout_failures_said(void **state)
{
    (void)state;
    spec("s.yaml", good_params, "", "size_x", "");
    put("empty.csv", "");
    const char *runs[] = {
        "space transpose > /dev/full", "space s.yaml > /dev/full",
        "space transpose --json > /dev/full",
        "bench transpose --list > /dev/full", "cache list > /dev/full",
        "--help > /dev/full",
    };
    for (size_t i = 0; i < sizeof runs / sizeof *runs; ++i) {
        char line[256];
        snprintf(line, sizeof line, "\"$A\" %s 2>err", runs[i]);
        int st = at_shell_in(dir, line);
        at_read_in(dir, "err", out, sizeof out);
        if (st != 1 || !strstr(out, "standard output"))
            fail_msg("%s: status %d: %s", runs[i], st, out);
    }
}

/* nvcc (sm_90) on args in dir, then what follows them there; fails
 * saying what, with nvcc's words. */
static void nvcc(const char *args, const char *what)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cd %s && { /usr/local/cuda/bin/nvcc "
             "-arch=sm_90 %s; } >nvcc.log 2>&1", dir, args);
    if (system(cmd) != 0) {
        at_read_in(dir, "nvcc.log", out, sizeof out);
        fail_msg("%s: %s", what, out);
    }
}

/* Row 8: default names differ by kind, so two files link into one
 * program (nvcc). */
static void two_reductions_link(void **state)
{
    (void)state;
    assert_int_equal(cli("reduce --arch sm_90 --op sum -o sum.cu"), 0);
    assert_int_equal(cli("reduce --arch sm_90 --op max -o max.cu"), 0);
    put("main.cu", "int main() { return 0; }\n");
    nvcc("sum.cu max.cu main.cu -o both", "two files did not link");
    /* A file of several problems is named from them, not from flags
     * that alone are no problem (ld_in 5000 is too small for 8192). */
    assert_int_equal(cli("transpose --arch sm_90 --ld-in 5000 --sizes "
                         "100x100,200x200 -o m.cu"), 0);
    assert_null(strstr(out, "leading dimensions"));
    char cu[1 << 16];
    at_read_in(dir, "m.cu", cu, sizeof cu);
    assert_non_null(strstr(cu, "autotune_transpose_f32("));
}

/* Row 9: 0 is no size. */
static void zero_is_no_size(void **state)
{
    (void)state;
    const char *runs[] = {"reduce --arch sm_90 --n 0",
                          "reduce --arch sm_90 --size 0",
                          "reduce --arch sm_90 --sizes 5,0",
                          "transpose --arch sm_90 --rows ' 5'",
                          "transpose --arch sm_90 --rows '5 '"};
    for (size_t i = 0; i < sizeof runs / sizeof *runs; ++i)
        if (cli(runs[i]) != 2)
            fail_msg("%s: %s", runs[i], out);
}

/* Row 11: a key twice is an error naming both lines. */
static void duplicate_keys(void **state)
{
    (void)state;
    spec("d.yaml", good_params, "", "size_x", "problem: {size: [64]}\n");
    assert_int_equal(cli("space d.yaml"), 2);
    assert_non_null(strstr(out, "the key 'problem' given twice (also on "
                                "line 3)"));
    put("d2.yaml", "autotune_spec: 1\nkernel:\n  name: vadd\n  name: other\n");
    assert_int_equal(cli("space d2.yaml"), 2);
    assert_non_null(strstr(out, "d2.yaml:4: the key 'name' given twice"));
}

/* Row 12: --record does what it says or fails saying why. */
static void record_or_say_why(void **state)
{
    (void)state;
    assert_int_equal(cli("transpose --arch sm_90 --record rec.csv"), 1);
    assert_non_null(strstr(out, "--record: nothing is tuned here"));
    assert_false(exists("rec.csv"));
    assert_int_equal(cli("transpose --arch sm_90 -o . "), 2);
    assert_non_null(strstr(out, "is a folder"));
}

/* Row 13: --json is JSON of a documented schema. */
static void json_is_json(void **state)
{
    (void)state;
    assert_int_equal(at_shell_in(dir, "\"$A\" bench transpose --list --json"
                                 " > l.json && \"$A\" cache list --json > "
                                 "c.json && /usr/bin/python3 " AT_DATA
                                 "/../validate_json.py " AT_DATA
                                 "/../../docs/schema l.json c.json"), 0);
}

/* Row 14: a control character in an error comes out escaped, on one
 * line. */
static void control_characters_escaped(void **state)
{
    (void)state;
    put("n.yaml", "autotune_spec: 1\nkernel: {name: vadd, source: "
                  "\"vadd.cu\\nx\"}\nproblem: {size: [64]}\n");
    assert_int_equal(cli("space n.yaml"), 2);
    assert_true(one_line(out));
    assert_non_null(strstr(out, "vadd.cu\\nx"));
    assert_int_equal(cli("transpose --arch sm_90 --name \"$(printf "
                         "'a\\nb')\""), 2);
    assert_true(one_line(out));
    assert_non_null(strstr(out, "a\\nb"));
}

/* Row 15: the small ones, each said as it is. */
static void small_ones(void **state)
{
    (void)state;
    assert_int_equal(cli("transpose --arch sm_90 -o ''"), 2);
    assert_non_null(strstr(out, "-o needs a path"));
    assert_int_equal(cli("transpose --arch sm_90 -o t.cu"), 0);
    assert_int_equal(at_shell_in(dir, "AUTOTUNE_CUBIN_CACHE=$PWD/c.db \"$A\" "
                                 "transpose --arch sm_90 -o u.cu 2>err"), 1);
    at_read_in(dir, "err", out, sizeof out);
    assert_non_null(strstr(out, "AUTOTUNE_CUBIN_CACHE is the cache itself"));
    assert_int_equal(cli("transpose --type F32"), 2);
    assert_null(strstr(out, "i32"));
    spec("z.yaml", good_params, "", "size_x",
         "restrictions: [block_size_x / (tile - 1) > 0]\n");
    assert_int_equal(cli("space z.yaml --json"), 2);
    assert_non_null(strstr(out, "AUTOTUNE_EINVALID"));
    put("nul.csv", "gpu,family,type,problem,point,params,verified,status,"
                   "median_ms,min_ms,max_ms,samples,gbps\nG,tr");
    assert_int_equal(at_shell_in(dir, "printf 'anspose\\0\\n' >> nul.csv; "
                                 "\"$A\" replay nul.csv 2>err"), 1);
    at_read_in(dir, "err", out, sizeof out);
    assert_non_null(strstr(out, "a NUL byte"));
    int a = cli("cache show"), b = cli("cache show --json");
    assert_int_equal(a, 1);
    assert_int_equal(b, 1);
}

/* Row 16: a size past the kernel's int is the launcher's error, not a
 * truncation (the launcher checks before any CUDA call: no GPU needed). */
static void launcher_refuses_what_int_cannot_hold(void **state)
{
    (void)state;
    spec("s.yaml", good_params, "", "size_x", "");
    assert_int_equal(cli("kernel s.yaml --arch sm_90 -o s.cu"), 0);
    put("call.cu", "#include <cuda_runtime.h>\n"
        "extern \"C\" cudaError_t autotune_vadd(float *, const float *, "
        "long long, cudaStream_t);\n"
        "int main() {\n"
        "  cudaError_t big = autotune_vadd(0, 0, 3000000000LL, 0);\n"
        "  return big == cudaErrorInvalidValue ? 0 : 1;\n}\n");
    nvcc("s.cu call.cu -o call && ./call",
         "the launcher took 3e9 for an int");
}

/* Row 17: a parameter nothing reads is the spec's mistake, named. */
static void unused_parameter(void **state)
{
    (void)state;
    spec("u.yaml", "  block_size_x: [64]\n  tile: [1]\n  knob: [1, 2]\n", "",
         "size_x", "");
    assert_int_equal(cli("space u.yaml"), 2);
    assert_non_null(strstr(out, "'knob' is named neither"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unlaunchable_points),
        cmocka_unit_test(foreign_cache_untouched),
        cmocka_unit_test(spec_paths_stay_inside),
        cmocka_unit_test(deep_nesting_is_quick),
        cmocka_unit_test(outputs_never_on_inputs),
        cmocka_unit_test(stdout_failures_said),
        cmocka_unit_test(two_reductions_link),
        cmocka_unit_test(zero_is_no_size),
        cmocka_unit_test(duplicate_keys),
        cmocka_unit_test(record_or_say_why),
        cmocka_unit_test(json_is_json),
        cmocka_unit_test(control_characters_escaped),
        cmocka_unit_test(small_ones),
        cmocka_unit_test(launcher_refuses_what_int_cannot_hold),
        cmocka_unit_test(unused_parameter),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, setup, teardown);
}
