/* Hostile and careless input to the command line and the emitter
 * (docs/RELIABILITY.md): text that tries to become code in the emitted
 * .cu, names and numbers that do not fit, files in the way, escape codes,
 * many processes writing one file. Each child runs without a CUDA driver
 * in a private temp dir that also holds its cache. */
#include "cli_shell.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/safefile.h"
#include "gen/emit.h"
#include "gen/ident.h"
#include "gen/problem.h"

static char dir[64];
static char out[65536]; /* the last run's stdout and stderr */

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/at-hostile-XXXXXX");
    return at_tmpdir_make(dir);
}

static int teardown(void **state)
{
    (void)state;
    return at_tmpdir_remove(dir);
}

/* Runs "BIN ARGS" (a shell line) in dir, no driver; its exit status. */
static int cli(const char *bin_env, const char *args)
{
    return at_cli_shell(dir, bin_env, args, out, sizeof out);
}

static size_t read_file(const char *name, char *buf, size_t cap)
{
    return at_read_in(dir, name, buf, cap);
}

/* Nothing of the command line or a cache field leaves the comment: the
 * first end of comment is the header's, and nvcc builds no injected
 * symbol. */
static void injection_stays_in_the_comment(void **state)
{
    (void)state;
    /* The command line is in the header: an output path that is an
     * attack (its folders made, so that it can be written). */
    char mk[256];
    snprintf(mk, sizeof mk, "mkdir -p '%s/a*/ extern \"C\" int "
             "injected_symbol = 42; '", dir);
    assert_int_equal(system(mk), 0);
    assert_int_equal(cli("AUTOTUNE_BIN", "transpose --arch sm_90 -o 'a*/ "
                         "extern \"C\" int injected_symbol = 42; /*.cu'"), 0);
    static char cu[65536];
    snprintf(mk, sizeof mk, "cd %s && cp 'a*/ extern \"C\" int "
             "injected_symbol = 42; /*.cu' inj.cu", dir);
    assert_int_equal(system(mk), 0);
    read_file("inj.cu", cu, sizeof cu);
    char *end = strstr(cu, "*/");
    assert_non_null(end);
    assert_true(strncmp(end, "*/\n#include <cuda_runtime.h>", 27) == 0);
    /* The API's provenance too: hostile GPU name, driver, reason. */
    at_problem p;
    at_err e = {0};
    assert_int_equal(at_problem_begin(&p, "transpose", "f32", &e), 0);
    assert_int_equal(at_problem_finish(&p, &e), 0);
    at_point pt;
    p.family->ops.default_point(&p, 90, &pt);
    at_provenance pv = {.tuned = 1, .gpu = "G*/ int evil; /*\x1b[31m",
                        .sm = 90, .driver_build = "1\n#define x",
                        .nvrtc = "13/**/", .tuned_at = "now*/",
                        .command = "a*/b"};
    char path[128];
    snprintf(path, sizeof path, "%s/api.cu", dir);
    assert_int_equal(at_emit(path, &p, &pt, "my_launcher", &pv, &e), 0);
    read_file("api.cu", cu, sizeof cu);
    end = strstr(cu, "*/");
    assert_true(end && strncmp(end, "*/\n#include <cuda_runtime.h>", 27) == 0);
    for (char *c = cu; c < end; ++c)
        assert_true(*c == '\n' || (*c >= 0x20 && *c < 0x7f));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cd %s && %s/bin/nvcc -arch=sm_90 -c inj.cu "
             "-o inj.o && %s/bin/nvcc -arch=sm_90 -c api.cu -o api.o && "
             "! nm inj.o api.o | grep -q 'injected_symbol\\|evil'", dir,
             "/usr/local/cuda", "/usr/local/cuda");
    assert_int_equal(system(cmd), 0);
}

static void names_must_build(void **state)
{
    (void)state;
    const char *bad[] = {"", "while", "int", "main", "cudaMalloc", "cuInit",
                         "_x", "9a", "a-b", "nvrtcFoo", "at_thing"};
    at_err e = {0};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        if (at_ident_check(bad[i], &e) != AUTOTUNE_EINVALID)
            fail_msg("'%s' accepted", bad[i]);
    assert_int_equal(at_ident_check("my_transpose", &e), 0);
    assert_int_equal(at_ident_check("cube", &e), 0);
    char longname[202];
    memset(longname, 'a', 200);
    longname[200] = '\0';
    assert_int_equal(at_ident_check(longname, &e), AUTOTUNE_EINVALID);
    assert_int_equal(cli("AUTOTUNE_BIN", "transpose --arch sm_90 --name "
                         "while"), 2);
    assert_int_equal(cli("AUTOTUNE_BIN", "transpose --arch sm_90 --name ''"),
                     2);
}

/* Numbers past int are refused, not wrapped. */
static void numbers_do_not_wrap(void **state)
{
    (void)state;
    const char *args[] = {
        "replay x.csv --seeds 4294967296",
        "transpose --arch sm_90 --jobs 4294967297",
        "transpose --arch sm_90 --device 4294967296",
        "transpose --arch sm_90 --kernel-limit 0",
    };
    for (size_t i = 0; i < sizeof args / sizeof args[0]; ++i)
        if (cli("AUTOTUNE_BIN", args[i]) != 2)
            fail_msg("'%s' was not refused: %s", args[i], out);
    char path[128];
    snprintf(path, sizeof path, "%s/wrap.csv", dir);
    FILE *f = fopen(path, "w");
    fprintf(f, "gpu,family,type,problem,point,params,verified,status,"
            "median_ms,min_ms,max_ms,samples,gbps\n"
            "G,transpose,f32,rows=1,p,a=4294967297,1,ok,1,1,1,1,1\n");
    fclose(f);
    assert_int_equal(cli("AUTOTUNE_BIN", "replay wrap.csv"), 1);
    assert_non_null(strstr(out, "fits an int"));
}

/* Paths too long fail; files in the way are not clobbered. */
static void files_in_the_way(void **state)
{
    (void)state;
    char args[1400] = "transpose --arch sm_90 -o ";
    size_t k = strlen(args);
    memset(args + k, 'p', 1100);
    args[k + 1100] = '\0';
    assert_int_equal(cli("AUTOTUNE_BIN", args), 2);
    assert_non_null(strstr(out, "too long"));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cd %s && echo keep > ro.cu && chmod 444 ro.cu"
             " && echo target > real.cu && ln -s real.cu link.cu && ln -s "
             "nowhere.cu dangling.cu && echo two > a.cu && ln a.cu b.cu",
             dir);
    assert_int_equal(system(cmd), 0);
    at_safefile s;
    at_err e = {0};
    const char *refused[] = {"ro.cu", "dangling.cu", "b.cu"};
    for (int i = 0; i < 3; ++i) {
        char path[128];
        snprintf(path, sizeof path, "%s/%s", dir, refused[i]);
        if (at_safefile_open(&s, path, &e) != AUTOTUNE_EIO)
            fail_msg("%s was not refused", refused[i]);
    }
    char buf[64];
    read_file("ro.cu", buf, sizeof buf);
    assert_string_equal(buf, "keep\n");
    assert_int_equal(cli("AUTOTUNE_BIN", "transpose --arch sm_90 -o link.cu"),
                     0);
    struct stat st;
    char link[128];
    snprintf(link, sizeof link, "%s/link.cu", dir);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode)); /* kept; the file it names replaced */
    read_file("real.cu", buf, sizeof buf);
    assert_non_null(strstr(buf, "GENERATED"));
}

/* Escape codes in arguments never reach the terminal raw. */
static void no_escapes_to_the_terminal(void **state)
{
    (void)state;
    assert_int_equal(cli("AUTOTUNE_BIN", "transpose --arch sm_90 --type "
                         "\"$(printf '\\033]0;x\\007\\033[31m')\""), 2);
    assert_non_null(strstr(out, "unknown type"));
    assert_null(strchr(out, '\033'));
    assert_null(strchr(out, '\007'));
}

/* Eight processes emitting one file, 100 times: each run succeeds and
 * the file is always whole. */
static void eight_writers_one_file(void **state)
{
    (void)state;
    const char *bin = getenv("AUTOTUNE_REL");
    if (!bin)
        fail_msg("AUTOTUNE_REL is not set (run through make check)");
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd %s && export AUTOTUNE_CACHE=%s/w.db "
             "AUTOTUNE_LIBCUDA=/nonexistent/libcuda.so.1; : > fails; "
             "for r in $(seq 100); do for i in 1 2 3 4 5 6 7 8; do "
             "(%s transpose --arch sm_90 -o same.cu >/dev/null 2>err$i || "
             "cat err$i >> fails) & done; wait; "
             "tail -c 2 same.cu | grep -q '}' || echo whole >> fails; "
             "done; ls | grep -c 'same.cu.' > leftovers; test ! -s fails",
             dir, dir, bin);
    int rc = system(cmd);
    read_file("fails", out, sizeof out);
    if (rc != 0)
        fail_msg("failures: %.2000s", out);
    char buf[16];
    read_file("leftovers", buf, sizeof buf);
    assert_string_equal(buf, "0\n"); /* no temporary file left */
}

static void worker_is_not_for_hands(void **state)
{
    (void)state;
    assert_int_equal(cli("AUTOTUNE_BIN", "__gpu-worker"), 2);
    assert_non_null(strstr(out, "not for use by hand"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(injection_stays_in_the_comment),
        cmocka_unit_test(names_must_build),
        cmocka_unit_test(numbers_do_not_wrap),
        cmocka_unit_test(files_in_the_way),
        cmocka_unit_test(no_escapes_to_the_terminal),
        cmocka_unit_test(eight_writers_one_file),
        cmocka_unit_test(worker_is_not_for_hands),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, setup, teardown);
}
