/* The reduction benchmark's CUB helpers built ahead (cli/reduce_cub.c,
 * at_cub_build_ahead): one build per element type and op the problems
 * need, none for what CUB cannot run, several at once, each loaded and
 * its file removed; what fails is built again when its problem comes,
 * and reported then with nvcc's output. nvcc is stood in for by a script
 * that builds a small C library with the same entry point (a CUB build
 * takes a minute of CPU); the spawning, waiting, loading and lookup are
 * the command's own. No GPU. */
#include "tap.h"

#include <string.h>
#include <sys/stat.h>

#include "cli/reduce_cub.c"

/* The command embeds templates/reduce_cub.cu; the stand-in reads none. */
const char at_tmpl_reduce_cub[] = "/* not read by the stand-in */\n";

static char dir[] = "/tmp/at-cub-ahead-XXXXXX";

/* Stands in for nvcc: takes its arguments as reduce_cub.c gives them,
 * notes its start and end in calls.log, fails for double (with a message
 * on its output), and otherwise builds stub.c with AT_OP's value. */
static const char fake_nvcc[] =
    "#!/bin/sh\n"
    "out= op= t=\n"
    "while [ $# -gt 0 ]; do\n"
    "  case $1 in\n"
    "    -o) out=$2; shift ;;\n"
    "    -DAT_OP=*) op=${1#-DAT_OP=} ;;\n"
    "    -DAT_T=*) t=${1#-DAT_T=} ;;\n"
    "  esac\n"
    "  shift\n"
    "done\n"
    "d=$(dirname \"$0\")\n"
    "echo \"start $t $op\" >> \"$d/calls.log\"\n"
    "sleep 0.4\n"
    "echo \"end $t $op\" >> \"$d/calls.log\"\n"
    "[ \"$t\" = double ] && { echo 'stand-in nvcc: no double here'; exit 3; }\n"
    "exec cc -shared -fPIC -DOP=\"$op\" -o \"$out\" \"$d/stub.c\"\n";

/* The helper's entry point; asked for its temporary storage it answers
 * 1000 + its op, so the test can tell which build it loaded. */
static const char stub[] =
    "#include <stddef.h>\n"
    "int at_cub_reduce(const void *in, void *out, long long rows,\n"
    "                  long long cols, long long ld, void *temp,\n"
    "                  size_t *temp_bytes, void *s)\n"
    "{\n"
    "    (void)in; (void)out; (void)rows; (void)cols; (void)ld; (void)s;\n"
    "    if (!temp) *temp_bytes = 1000 + OP;\n"
    "    return 0;\n"
    "}\n";

static void put(const char *name, const char *text, mode_t mode)
{
    char path[256];
    at_put_file(dir, name, text);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_int_equal(chmod(path, mode), 0);
}

/* calls.log: the builds started, and the most that ran at once. */
static int calls(int *most)
{
    char path[256], line[128];
    snprintf(path, sizeof path, "%s/calls.log", dir);
    FILE *f = fopen(path, "r");
    int started = 0, running = 0;
    *most = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f)) {
        running += strncmp(line, "start", 5) == 0 ? 1 : -1;
        started += strncmp(line, "start", 5) == 0;
        *most = running > *most ? running : *most;
    }
    fclose(f);
    return started;
}

/* The entries of a folder, . and .. aside. */
static int entries(const char *path)
{
    DIR *d = opendir(path);
    int k = 0;
    assert_non_null(d);
    for (struct dirent *de; (de = readdir(d));)
        k += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
    closedir(d);
    return k;
}

static at_problem make(const char *type, const char *fields)
{
    at_problem p;
    at_err e = {0};
    int rc = at_problem_make(&p, "reduce", type, fields, &e);
    if (rc)
        fail_msg("%s %s: %s", type, fields, e.msg);
    return p;
}

static void builds_each_helper_once_at_once(void **state)
{
    (void)state;
    char nvcc[256];
    snprintf(nvcc, sizeof nvcc, "%s/nvcc", dir);
    put("nvcc", fake_nvcc, 0700);
    put("stub.c", stub, 0600);
    setenv("AUTOTUNE_NVCC", nvcc, 1);
    at_device d = {.sm = 90};
    at_cub *c = NULL;
    at_err e = {0};
    assert_int_equal(at_cub_open(&c, &d, &e), 0);

    at_problem p[] = {
        make("f32", "op=sum axis=cols rows=100 cols=200"),
        make("f32", "op=sum axis=all n=5000"),           /* the same helper */
        make("i32", "op=max axis=all n=5000"),
        make("f16", "op=amax axis=cols rows=7 cols=9"),
        make("bf16", "op=min axis=all n=100"),
        make("f64", "op=sum axis=all n=100"),            /* nvcc fails */
        make("f32", "op=min axis=rows rows=100 cols=200"), /* CUB cannot */
        make("i32", "op=max axis=cols rows=3 cols=4"),     /* the same */
    };
    const int n = sizeof p / sizeof p[0];
    const at_problem *ps[sizeof p / sizeof p[0]];
    for (int i = 0; i < n; ++i)
        ps[i] = &p[i];
    assert_non_null(at_cub_cannot(&p[6]));

    int most = 0;
    assert_int_equal(at_cub_build_ahead(c, ps, n, 3, NULL), 4);
    assert_int_equal(calls(&most), 5); /* f32 sum, i32 max, f16 amax,
                                          bf16 min, f64 sum */
    assert_int_equal(most, 3);
    assert_int_equal(c->n_libs, 4);
    /* Loaded, their files are gone: the source and the failed build's
     * log are left. */
    assert_int_equal(entries(c->dir), 2);

    /* Built ahead: loading starts no build, and finds each problem's op
     * (four ops among them). */
    for (int i = 0; i < 5; ++i) {
        assert_int_equal(load(c, &p[i], &e), 0);
        size_t bytes = 0;
        assert_int_equal(c->fn(NULL, NULL, 0, 0, 0, NULL, &bytes, NULL), 0);
        assert_int_equal(bytes, 1000 + p[i].v[RD_OP]);
    }
    assert_int_equal(calls(&most), 5);

    /* Ahead again: only the one that failed is tried. */
    assert_int_equal(at_cub_build_ahead(c, ps, n, 0, NULL), 0);
    assert_int_equal(calls(&most), 6);

    /* Its problem builds it once more and says what nvcc said. */
    assert_int_equal(load(c, &p[5], &e), AUTOTUNE_ECOMPILE);
    assert_non_null(strstr(e.msg, "(f64_sum)"));
    assert_non_null(strstr(e.msg, "stand-in nvcc: no double here"));
    assert_int_equal(calls(&most), 7);
    at_cub_close(c);
    unsetenv("AUTOTUNE_NVCC");
}

static int setup(void **state)
{
    (void)state;
    return at_tmpdir_make(dir);
}

static int teardown(void **state)
{
    (void)state;
    const char *names[] = {"nvcc", "stub.c", "calls.log"};
    char path[256];
    for (int i = 0; i < 3; ++i) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    return rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builds_each_helper_once_at_once),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, setup, teardown);
}
