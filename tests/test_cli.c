/* The command line, run as a child process: exit status, messages, files.
 * The binary is $AUTOTUNE_BIN (the Makefile's sanitizer build). Every child
 * runs in a fresh temp dir that also holds its cache, and sees no CUDA
 * driver, so the runs are the same here, in CI and on a GPU machine. */
#include "cli_run.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/family.h"
#include "gen/types.h"

#define NO_DRIVER "AUTOTUNE_LIBCUDA=/nonexistent/libcuda.so.1"
#define MAX_ARGS 16

/* $AUTOTUNE_BIN made absolute: the child runs in the temp dir. */
static char *cli_bin;

typedef struct fixture {
    char dir[64];      /* mkdtemp: cwd and cache of every child */
    const void *arg;   /* the case, for table-driven tests */
    char cmd[512];     /* the last run, for failure messages */
    int status;        /* its exit status, or 128 + signal */
    char *out, *err;   /* its stdout and stderr */
    char *file;        /* the last file read by read_path */
    char **names;      /* scratch of the space tests */
} fixture;

/* Fails with the command and what it printed, on one line, so the log
 * says which run broke and how. */
#define CHECK(fx, cond)                                                      \
    do {                                                                     \
        if (!(cond))                                                         \
            check_failed(fx, #cond, __FILE__, __LINE__);                     \
    } while (0)

/* s, newlines shown as \n, cut to fit buf. */
static const char *squash(const char *s, char *buf, size_t n)
{
    size_t k = 0;
    for (; s && *s && k + 3 < n; ++s) {
        if (*s == '\n')
            buf[k++] = '\\', buf[k++] = 'n';
        else
            buf[k++] = *s;
    }
    buf[k] = '\0';
    return buf;
}

static void check_failed(const fixture *fx, const char *what,
                         const char *file, int line)
{
    char out[300], err[300];
    print_error("%s: failed: %s; exit %d; stdout: %s; stderr: %s\n",
                fx->cmd, what, fx->status, squash(fx->out, out, sizeof out),
                squash(fx->err, err, sizeof err));
    _fail(file, line);
}

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    if (!fx)
        return -1;
    fx->arg = *state; /* the prestate, if any */
    strcpy(fx->dir, "/tmp/autotune-cli-XXXXXX");
    if (!mkdtemp(fx->dir)) {
        free(fx);
        return -1;
    }
    *state = fx;
    return 0;
}

static void clear_run(fixture *fx)
{
    free(fx->out);
    free(fx->err);
    fx->out = fx->err = NULL;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    clear_run(fx);
    free(fx->file);
    free(fx->names);
    /* Depth first, not following links: the cache and any emitted .cu. */
    int rc = at_rm_tree(fx->dir);
    free(fx);
    return rc;
}

/* Reads path into fx->file; NULL if it cannot be opened. */
static const char *read_path(fixture *fx, const char *path)
{
    free(fx->file);
    fx->file = NULL;
    FILE *f = fopen(path, "r");
    if (f) {
        fx->file = at_slurp(f);
        fclose(f);
    }
    return fx->file;
}

/* Entries of fx->dir whose names end with suffix ("": all of them). */
static int count_entries(const fixture *fx, const char *suffix)
{
    DIR *d = opendir(fx->dir);
    if (!d)
        return -1;
    int n = 0;
    size_t ls = strlen(suffix);
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && l >= ls &&
            strcmp(e->d_name + l - ls, suffix) == 0)
            ++n;
    }
    closedir(d);
    return n;
}

/* Sets or replaces NAME=value in env (n entries, room for MAX_ARGS). */
static void env_put(const char **env, int *n, const char *entry)
{
    size_t k = strcspn(entry, "=") + 1;
    for (int i = 0; i < *n; ++i)
        if (strncmp(env[i], entry, k) == 0) {
            env[i] = entry;
            return;
        }
    if (*n < MAX_ARGS)
        env[(*n)++] = entry;
}

/* Runs the CLI with args (NULL-terminated) in fx->dir, and a clean
 * environment plus extra (NULL-terminated, may be NULL; an entry replaces
 * a default of the same name). Fills fx->status, out and err. */
static void run(fixture *fx, const char *const *args, const char *const *extra)
{
    char *argv[MAX_ARGS + 2];
    int na = 0, used = snprintf(fx->cmd, sizeof fx->cmd, "autotune");
    argv[na++] = cli_bin;
    for (int i = 0; args[i] && na <= MAX_ARGS; ++i) {
        argv[na++] = (char *)args[i];
        if (used < (int)sizeof fx->cmd)
            used += snprintf(fx->cmd + used, sizeof fx->cmd - used, " %s",
                             args[i]);
    }
    argv[na] = NULL;

    /* Only what the child needs: the user's cache and driver stay out. */
    char cache[96];
    snprintf(cache, sizeof cache, "AUTOTUNE_CACHE=%s/cache.db", fx->dir);
    const char *env[MAX_ARGS + 1];
    int ne = 0;
    for (char **e = environ; *e; ++e)
        if (strncmp(*e, "PATH=", 5) == 0 || strncmp(*e, "HOME=", 5) == 0)
            env_put(env, &ne, *e);
    env_put(env, &ne, "ASAN_OPTIONS=detect_leaks=1");
    env_put(env, &ne, cache);
    env_put(env, &ne, NO_DRIVER);
    for (int i = 0; extra && extra[i]; ++i)
        env_put(env, &ne, extra[i]);
    env[ne] = NULL;

    clear_run(fx);
    at_run_captured(cli_bin, argv, (char *const *)env, fx->dir, &fx->status,
                    &fx->out, &fx->err);
}

/* Exactly one non-empty line: how the CLI reports every error. */
static int one_line(const char *s)
{
    const char *nl = strchr(s, '\n');
    return nl && nl != s && nl[1] == '\0';
}

/* Bad usage: exit 2, one line on stderr naming the problem, no stdout,
 * and nothing written (the child's cwd is the empty temp dir). */
typedef struct bad_case {
    const char *name;
    const char *args[MAX_ARGS];
    const char *says[2];
} bad_case;

/* Spec files of bad_input's cases (the child runs in a temp dir). */
#define SPECS AT_DATA "/specs"

static const bad_case bad[] = {
    {"usage: unknown family", {"bogus"}, {"unknown family", "'bogus'"}},
    {"usage: unknown type",
     {"transpose", "--type", "f128"},
     {"unknown type", "'f128'"}},
    {"usage: unknown flag",
     {"transpose", "--frob"},
     {"unknown option", "'--frob'"}},
    {"usage: non-numeric size",
     {"transpose", "--rows", "abc"},
     {"--rows", "'abc'"}},
    {"usage: zero size", {"transpose", "--cols", "0"}, {"--cols", "'0'"}},
    {"usage: negative size",
     {"transpose", "--rows", "-5"},
     {"--rows", "'-5'"}},
    {"usage: trailing garbage",
     {"transpose", "--rows", "12x"},
     {"--rows", "'12x'"}},
    {"usage: flag without value",
     {"transpose", "--rows"},
     {"--rows", "needs a value"}},
    {"usage: byte count overflows",
     {"transpose", "--rows", "2000000000", "--cols", "2000000000", "--type",
      "f64", "--arch", "sm_90"},
     {"overflow", "2000000000 x 2000000000"}},
    {"usage: bad arch",
     {"transpose", "--arch", "banana"},
     {"--arch", "'banana'"}},
    {"usage: bad name",
     {"transpose", "--name", "9abc"},
     {"--name", "'9abc'"}},
    {"usage: arch with a leading zero",
     {"transpose", "--arch", "sm_090"},
     {"--arch", "'sm_090'"}},
    {"usage: seed zero", {"transpose", "--seed", "0"}, {"--seed", "'0'"}},
    {"usage: space with an option it ignores",
     {"space", "transpose", "-o", "x.cu"},
     {"-o is for tuning", "not space"}},
    {"usage: budget of zero", {"transpose", "--budget", "0"},
     {"--budget", "'0'"}},
    {"usage: budget neither count nor seconds",
     {"transpose", "--budget", "10x"},
     {"--budget", "'10x'"}},
    {"usage: unknown strategy",
     {"transpose", "--strategy", "annealing"},
     {"unknown strategy 'annealing'", "genetic"}},
    {"usage: fast-compile is gone (it missed the optimum)",
     {"transpose", "--fast-compile", "mid"},
     {"unknown option", "'--fast-compile'"}},
    {"usage: compile limit of zero",
     {"transpose", "--compile-limit", "0"},
     {"--compile-limit", "'0'"}},
    {"usage: --json and -o - both on stdout",
     {"transpose", "--json", "-o", "-"},
     {"--json", "stdout"}},
    {"usage: --seeds outside replay",
     {"transpose", "--seeds", "5"},
     {"--seeds", "replay"}},
    {"usage: replay without a record", {"replay"}, {"replay needs", "csv"}},
    {"usage: replay with a tuning flag",
     {"replay", "r.csv", "--budget", "5"},
     {"--budget is for tuning and bench", "not replay"}},
    {"usage: batch of zero", {"transpose", "--batch", "0"},
     {"--batch", "'0'"}},
    {"usage: batch strides that overlap",
     {"transpose", "--rows", "10", "--cols", "10", "--batch", "3",
      "--stride-in", "50", "--arch", "sm_90"},
     {"overlap", "stride_in 50"}},
    {"usage: --csv outside bench", {"transpose", "--csv", "x.csv"},
     {"--csv", "bench"}},
    {"usage: bench for another architecture",
     {"bench", "transpose", "--arch", "sm_80"},
     {"--arch is for tuning and space", "not bench"}},
    {"usage: bench tune with a flag that changes the tune",
     {"bench", "tune", "--seed", "3"},
     {"--seed is for tuning, bench and tune-list", "not bench tune"}},
    {"usage: --sweep outside bench", {"transpose", "--sweep", "3"},
     {"--sweep", "bench"}},
    {"usage: --sweep with a problem", {"bench", "transpose", "--sweep", "3",
                                        "--type", "f32"},
     {"--sweep draws", "--type"}},
    {"usage: bench tune of an unknown family",
     {"bench", "tune", "sort"},
     {"unknown family 'sort'", "transpose"}},
    {"spec: kernel without a spec file", {"kernel"},
     {"kernel needs", "SPEC"}},
    {"spec: no such file", {"kernel", "/nonexistent/k.yaml", "--arch",
                            "sm_90"},
     {"/nonexistent/k.yaml", "No such file"}},
    {"spec: malformed YAML",
     {"kernel", SPECS "/bad_yaml.yaml", "--arch", "sm_90"},
     {"bad_yaml.yaml:4:", "malformed YAML"}},
    {"spec: unknown name in a restriction",
     {"kernel", SPECS "/bad_restriction.yaml", "--arch", "sm_90"},
     {"bad_restriction.yaml:12:", "unknown name 'tile'"}},
    {"spec: a kernel name the source never names",
     {"kernel", SPECS "/bad_kernel_name.yaml", "--arch", "sm_90"},
     {"kernel.name", "never names 'vector_sum'"}},
    {"spec: --size with more sizes than the spec has",
     {"kernel", AT_EXAMPLES "/kernels/vector_add/vector_add.yaml", "--size",
      "10x10", "--arch", "sm_90"},
     {"--size", "'10x10'"}},
    {"spec: empty space after the restrictions",
     {"kernel", AT_EXAMPLES "/kernels/matmul/matmul.yaml", "--size",
      "1000x1024", "--arch", "sm_90"},
     {"no point of the 108", "removed the most"}},
    {"spec: space of an empty space",
     {"space", AT_EXAMPLES "/kernels/matmul/matmul.yaml", "--size",
      "1000x1024"},
     {"no point of the 108", "removed the most"}},
    {"usage: --devices listing a device twice",
     {"transpose", "--sizes", "64x64,128x128", "--devices", "0,0"},
     {"--devices needs", "each once"}},
    {"usage: --devices for one problem",
     {"transpose", "--size", "64x64", "--devices", "0"},
     {"--devices needs a list", "tune-list"}},
    {"usage: tune-list without its list", {"tune-list"},
     {"tune-list needs a list", "a problem a line"}},
    {"usage: tune-list with a problem's flag",
     {"tune-list", "list.txt", "--size", "3x3"},
     {"--size is for", "not tune-list"}},
    {"usage: bench of an impossible problem",
     {"bench", "transpose", "--type", "c128", "--rows", "2000000000",
      "--cols", "2000000000"},
     {"overflow", "c128"}},
};

static void bad_input(void **state)
{
    fixture *fx = *state;
    const bad_case *c = fx->arg;
    run(fx, c->args, NULL);
    CHECK(fx, fx->status == 2);
    /* Nothing on stdout, unless --json asked for the error as an object. */
    int json = 0;
    for (int i = 0; c->args[i]; ++i)
        json |= strcmp(c->args[i], "--json") == 0;
    if (json)
        CHECK(fx, fx->out[0] == '{' &&
                      strstr(fx->out, "\"schema\": \"autotune.error/1\""));
    else
        CHECK(fx, fx->out[0] == '\0');
    CHECK(fx, one_line(fx->err));
    CHECK(fx, strstr(fx->err, c->says[0]));
    CHECK(fx, strstr(fx->err, c->says[1]));
    CHECK(fx, count_entries(fx, "") == 0);
}

static void missing_cache_dir(void **state)
{
    fixture *fx = *state;
    run(fx, (const char *[]){"transpose", "--arch", "sm_90", "-o", "t.cu",
                             NULL},
        (const char *[]){"AUTOTUNE_CACHE=/nonexistent-dir-q/c.db", NULL});
    CHECK(fx, fx->status != 0);
    CHECK(fx, one_line(fx->err));
    CHECK(fx, strstr(fx->err, "/nonexistent-dir-q"));
    CHECK(fx, count_entries(fx, ".cu") == 0);
}

static void arch_auto_without_driver(void **state)
{
    fixture *fx = *state;
    run(fx, (const char *[]){"transpose", "--arch", "auto", NULL}, NULL);
    CHECK(fx, fx->status == 1);
    CHECK(fx, fx->out[0] == '\0');
    CHECK(fx, one_line(fx->err));
    CHECK(fx, strstr(fx->err, "no CUDA driver"));
    CHECK(fx, count_entries(fx, ".cu") == 0);
}

/* No driver, --arch sm_90: the default point, marked NOT TUNED on stdout
 * and in the file. */
static void emit_untuned(void **state)
{
    fixture *fx = *state;
    char path[96], wrote[128], point[128];
    snprintf(path, sizeof path, "%s/t.cu", fx->dir);
    snprintf(wrote, sizeof wrote, "wrote %s\n", path);
    run(fx, (const char *[]){"transpose", "--arch", "sm_90", "-o", path,
                             "--quiet", NULL},
        NULL);
    CHECK(fx, fx->status == 0);
    CHECK(fx, fx->err[0] == '\0');
    CHECK(fx, strstr(fx->out, "NOT TUNED"));
    CHECK(fx, strstr(fx->out, wrote));
    const char *dp = strstr(fx->out, "default point ");
    CHECK(fx, dp);
    dp += strlen("default point ");
    snprintf(point, sizeof point, "%.*s", (int)strcspn(dp, "\n"), dp);
    CHECK(fx, point[0] != '\0');

    const char *f = read_path(fx, path);
    CHECK(fx, f);
    const char *gen = strstr(f, "GENERATED by autotune");
    CHECK(fx, strncmp(f, "/*", 2) == 0 && gen && gen < strchr(f, '\n'));
    CHECK(fx, strstr(f, "NOT TUNED"));
    CHECK(fx, strstr(f, point)); /* the point stdout named */
    CHECK(fx, strstr(f, "extern \"C\" cudaError_t autotune_transpose_f32("));
    CHECK(fx, strstr(f, "#define AT_TILE_X"));
    CHECK(fx, count_entries(fx, ".cu") == 1); /* no temp file left over */
}

/* A spec's kernel emitted untuned: its launcher takes the spec's
 * arguments and sizes; verify: none is said on the terminal and in the
 * file. */
static void emit_spec_unverified(void **state)
{
    fixture *fx = *state;
    char path[96];
    snprintf(path, sizeof path, "%s/u.cu", fx->dir);
    run(fx, (const char *[]){"kernel", SPECS "/unverified.yaml", "--arch",
                             "sm_90", "--size", "4099", "-o", path, NULL},
        NULL);
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->out, "NOT VERIFIED"));
    const char *f = read_path(fx, path);
    CHECK(fx, f);
    CHECK(fx, strstr(f, "NOT VERIFIED:"));
    CHECK(fx, strstr(f, "problem:  planted 4099"));
    CHECK(fx, strstr(f, "extern \"C\" cudaError_t autotune_planted("
                        "float *c, const float *a, const float *b, "
                        "long long size_x, cudaStream_t at_stream)"));
    CHECK(fx, strstr(f, "#define planted AT_KERNEL"));
}

static void emit_f64_named(void **state)
{
    fixture *fx = *state;
    char path[96];
    snprintf(path, sizeof path, "%s/t.cu", fx->dir);
    run(fx, (const char *[]){"transpose", "--arch", "sm_90", "--type", "f64",
                             "--name", "my_t", "-o", path, "--quiet", NULL},
        NULL);
    CHECK(fx, fx->status == 0);
    const char *f = read_path(fx, path);
    CHECK(fx, f);
    CHECK(fx, strstr(f, "extern \"C\" cudaError_t my_t(const double *in"));
    CHECK(fx, !strstr(f, "autotune_transpose_f"));
}

/* With -o - stdout is the .cu alone (it can be redirected into a file
 * that compiles); the summary goes to stderr. */
static void emit_to_stdout(void **state)
{
    fixture *fx = *state;
    run(fx, (const char *[]){"transpose", "--arch", "sm_90", "-o", "-", NULL},
        NULL);
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->err, "autotune: sm_90: NOT TUNED ("));
    CHECK(fx, !strstr(fx->out, "autotune: sm_90"));
    CHECK(fx, strncmp(fx->out, "/* GENERATED by autotune", 24) == 0);
    CHECK(fx, strstr(fx->out,
                     "extern \"C\" cudaError_t autotune_transpose_f32("));
    CHECK(fx, count_entries(fx, ".cu") == 0);
}

/* -o onto a symlink writes through it: the link stays a link. */
static void emit_through_symlink(void **state)
{
    fixture *fx = *state;
    char link[128], real[128];
    snprintf(link, sizeof link, "%s/link.cu", fx->dir);
    snprintf(real, sizeof real, "%s/real.cu", fx->dir);
    FILE *f = fopen(real, "w");
    CHECK(fx, f && fclose(f) == 0);
    CHECK(fx, symlink("real.cu", link) == 0);
    run(fx, (const char *[]){"transpose", "--arch", "sm_90", "-o", "link.cu",
                             "--quiet", NULL},
        NULL);
    CHECK(fx, fx->status == 0);
    struct stat st;
    CHECK(fx, lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(fx, stat(real, &st) == 0 && st.st_size > 1000);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* `space transpose --type T`: checks the "points:" line and that the
 * names after it number M and are unique; returns M, and whether any name
 * has vec=4. */
static size_t space_points(fixture *fx, const char *type, int *vec4)
{
    run(fx, (const char *[]){"space", "transpose", "--type", type, NULL},
        NULL);
    CHECK(fx, fx->status == 0);
    CHECK(fx, fx->err[0] == '\0');
    char *p = strstr(fx->out, "\npoints: ");
    CHECK(fx, p);
    size_t before = 0, after = 0;
    CHECK(fx, sscanf(p + 1, "points: %zu before constraints, %zu after",
                     &before, &after) == 2);
    CHECK(fx, before == 22394880);
    CHECK(fx, after > 0 && after < before);

    /* Split the lines after it in place, then sort to find duplicates. */
    char *s = strchr(p + 1, '\n');
    CHECK(fx, s);
    ++s;
    size_t n = 0;
    for (const char *q = s; *q; ++q)
        n += *q == '\n';
    free(fx->names);
    fx->names = calloc(n + 1, sizeof *fx->names);
    assert_non_null(fx->names);
    n = 0;
    *vec4 = 0;
    for (char *nl; (nl = strchr(s, '\n')); s = nl + 1) {
        *nl = '\0';
        fx->names[n++] = s;
        *vec4 |= strstr(s, "_vec4_") != NULL;
    }
    CHECK(fx, *s == '\0'); /* the last line ends with a newline */
    CHECK(fx, n == after);
    qsort(fx->names, n, sizeof *fx->names, cmp_str);
    for (size_t i = 0; i < n; ++i) {
        CHECK(fx, fx->names[i][0] != '\0');
        if (i && strcmp(fx->names[i - 1], fx->names[i]) == 0)
            fail_msg("%s: duplicate point %s", fx->cmd, fx->names[i]);
    }
    return after;
}

static void space_lists_points(void **state)
{
    fixture *fx = *state;
    int vec4;
    space_points(fx, "f32", &vec4);
    assert_true(vec4);
}

/* vec is at most 16 bytes: 8-byte elements lose vec=4. */
static void space_f64_drops_vec4(void **state)
{
    fixture *fx = *state;
    int vec4_32, vec4_64;
    size_t m32 = space_points(fx, "f32", &vec4_32);
    size_t m64 = space_points(fx, "f64", &vec4_64);
    assert_true(vec4_32);
    assert_false(vec4_64);
    assert_true(m64 < m32);
}

/* A batched problem's file is named for its batch, and its header and
 * launcher say so. */
static void emit_batched_i8(void **state)
{
    fixture *fx = *state;
    run(fx, (const char *[]){"transpose", "--arch", "sm_90", "--type", "i8",
                             "--rows", "64", "--cols", "48", "--batch", "7",
                             "--quiet", NULL},
        NULL);
    CHECK(fx, fx->status == 0);
    char path[128];
    snprintf(path, sizeof path, "%s/transpose_i8_7x64x48.cu", fx->dir);
    const char *f = read_path(fx, path);
    CHECK(fx, f);
    CHECK(fx, strstr(f, "64x48 ld_in=48 ld_out=64 batch=7 stride_in=3072 "
                          "stride_out=3072"));
    CHECK(fx, strstr(f, "autotune_transpose_i8_batched(const signed char"));
    CHECK(fx, strstr(f, "#define AT_ELEM_BYTES 1"));
}

/* The benchmark needs a GPU: it says so and fails (exit 1), leaving no
 * CSV behind. */
static void bench_without_driver(void **state)
{
    fixture *fx = *state;
    run(fx, (const char *[]){"bench", "transpose", "--csv", "b.csv", NULL},
        NULL);
    CHECK(fx, fx->status == 1);
    CHECK(fx, fx->out[0] == '\0');
    CHECK(fx, one_line(fx->err));
    CHECK(fx, strstr(fx->err, "no CUDA driver"));
    CHECK(fx, strstr(fx->err, "needs a CUDA GPU"));
    CHECK(fx, count_entries(fx, ".csv") == 0);
    CHECK(fx, count_entries(fx, ".partial") == 0);
}

/* So does the tuning benchmark, before it runs anything. */
static void bench_tune_without_driver(void **state)
{
    fixture *fx = *state;
    run(fx, (const char *[]){"bench", "tune", "--type", "f64", "--csv",
                             "t.csv", NULL},
        NULL);
    CHECK(fx, fx->status == 1);
    CHECK(fx, fx->out[0] == '\0');
    CHECK(fx, one_line(fx->err));
    CHECK(fx, strstr(fx->err, "no CUDA driver"));
    CHECK(fx, strstr(fx->err, "bench tune needs a CUDA GPU"));
    CHECK(fx, count_entries(fx, ".csv") == 0);
}

/* A sweep's problems, listed without a GPU: drawn again from the same
 * seed, other ones from another, every line a problem of the sizes and
 * kinds the sweep promises (1 MiB to 1 GiB, thin ones, batches, padded
 * leading dimensions, every type). */
static void bench_sweep_lists_problems(void **state)
{
    fixture *fx = *state;
    run(fx, (const char *[]){"bench", "transpose", "--sweep", "200",
                             "--seed", "11", "--list", NULL},
        NULL);
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->err, "200 transpose problems drawn with seed 11"));
    char *first = strdup(fx->out), *split = strdup(fx->out);
    assert_non_null(first);
    assert_non_null(split);
    int lines = 0, thin = 0, batched = 0, padded = 0, types = 0;
    char seen[16][8] = {{0}};
    for (char *l = split, *next; l && *l; l = next) {
        next = strchr(l, '\n');
        if (next)
            *next++ = '\0';
        char type[8];
        long long r, c, b = 1;
        CHECK(fx, sscanf(l, "transpose %7s %lldx%lld", type, &r, &c) == 3);
        const char *bt = strstr(l, "batch=");
        if (bt)
            b = atoll(bt + 6);
        const at_type *t = at_type_find(type);
        CHECK(fx, t != NULL);
        double bytes = (double)r * (double)c * (double)b * t->bytes;
        /* Whole elements: a side rounds down, by at most half. */
        CHECK(fx, bytes >= (1 << 18) && bytes <= (1 << 30));
        thin += r <= 32 || c <= 32;
        batched += b > 1;
        padded += strstr(l, "ld_in=") && atoll(strstr(l, "ld_in=") + 6) > c;
        int k = 0;
        while (k < types && strcmp(seen[k], type))
            ++k;
        if (k == types && types < 16)
            snprintf(seen[types++], sizeof seen[0], "%s", type);
        ++lines;
    }
    free(split);
    CHECK(fx, lines == 200);
    CHECK(fx, thin >= 30 && batched >= 8 && padded >= 30);
    int all = 0;
    for (int t = 0; at_type_at(t); ++t)
        all += at_family_takes(at_family_find("transpose"), at_type_at(t));
    CHECK(fx, types == all);
    run(fx, (const char *[]){"bench", "transpose", "--sweep", "200",
                             "--seed", "11", "--list", NULL},
        NULL);
    int same = fx->status == 0 && strcmp(fx->out, first) == 0;
    run(fx, (const char *[]){"bench", "transpose", "--sweep", "200",
                             "--seed", "12", "--list", NULL},
        NULL);
    int other = fx->status == 0 && strcmp(fx->out, first) != 0;
    free(first);
    CHECK(fx, same && other);
}

static void help(void **state)
{
    fixture *fx = *state;
    run(fx, (const char *[]){"--help", NULL}, NULL);
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->out, "usage"));
    CHECK(fx, fx->err[0] == '\0');
}

static void version(void **state)
{
    fixture *fx = *state;
    run(fx, (const char *[]){"--version", NULL}, NULL);
    CHECK(fx, fx->status == 0);
    CHECK(fx, one_line(fx->out));
    CHECK(fx, strncmp(fx->out, "autotune ", 9) == 0 &&
                  isdigit((unsigned char)fx->out[9]));
    CHECK(fx, fx->err[0] == '\0');
}

static void no_arguments(void **state)
{
    fixture *fx = *state;
    run(fx, (const char *[]){NULL}, NULL);
    CHECK(fx, fx->status == 2);
    CHECK(fx, fx->out[0] == '\0');
    CHECK(fx, one_line(fx->err));
    CHECK(fx, strstr(fx->err, "missing command"));
}

/* The replay of the committed H100 record: the table, and the JSON the
 * issue names (an object per strategy), with --seeds and --strategy. */
static void replay_table_and_json(void **state)
{
    fixture *fx = *state;
    const char *rec = AT_DATA "/h100-transpose-f32-8192x8192.csv";
    run(fx, (const char *[]){"replay", rec, "--seeds", "5", NULL}, NULL);
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->out, "2480 points"));
    CHECK(fx, strstr(fx->out, "evals_to_1pct"));
    const char *names[] = {"exhaustive", "random", "local", "genetic"};
    for (int i = 0; i < 4; ++i)
        CHECK(fx, strstr(fx->out, names[i]));
    run(fx, (const char *[]){"replay", rec, "--json", "--seeds", "3",
                             "--strategy", "random", NULL},
        NULL);
    CHECK(fx, fx->status == 0);
    CHECK(fx, strstr(fx->out, "\"schema\": \"autotune.replay/1\""));
    CHECK(fx, strstr(fx->out, "\"strategy\": \"random\""));
    CHECK(fx, strstr(fx->out, "\"evals_to_1pct\": "));
    CHECK(fx, strstr(fx->out, "\"evals_to_2pct\": "));
    CHECK(fx, strstr(fx->out, "\"space_size\": 2480"));
    CHECK(fx, !strstr(fx->out, "genetic"));
    CHECK(fx, strstr(fx->err, "evals_to_1pct")); /* the table, on stderr */
}

/* --csv: every seed's evaluations in order, each with the record's time,
 * seed by seed up to the point within 1% of the optimum. */
static void replay_trace(void **state)
{
    fixture *fx = *state;
    const char *rec = AT_DATA "/h100-transpose-f32-8192x8192.csv";
    char path[600];
    snprintf(path, sizeof path, "%s/trace.csv", fx->dir);
    run(fx, (const char *[]){"replay", rec, "--seeds", "2", "--strategy",
                             "random", "--csv", path, NULL},
        NULL);
    CHECK(fx, fx->status == 0);
    const char *t = read_path(fx, path);
    CHECK(fx, t && strncmp(t, "strategy,seed,evaluation,point,median_ms\n",
                           41) == 0);
    int rows = 0, seed2 = 0, order = 1;
    long last_eval = 0;
    for (const char *l = t ? strchr(t, '\n') : NULL; l && l[1];
         l = strchr(l + 1, '\n')) {
        int seed;
        long ev;
        CHECK(fx, sscanf(l + 1, "random,%d,%ld,", &seed, &ev) == 2);
        order &= ev == (seed == 2 && !seed2 ? 1 : last_eval + 1);
        seed2 |= seed == 2;
        last_eval = ev;
        ++rows;
    }
    CHECK(fx, rows > 2 && seed2 && order);
}

static void replay_missing_record(void **state)
{
    fixture *fx = *state;
    run(fx, (const char *[]){"replay", "nothing-here.csv", NULL}, NULL);
    CHECK(fx, fx->status == 1);
    CHECK(fx, fx->out[0] == '\0');
    CHECK(fx, one_line(fx->err));
    CHECK(fx, strstr(fx->err, "nothing-here.csv"));
}

/* tune-list's file: a problem a line as the command line reads it,
 * comments and repeats allowed, anything else refused naming the line;
 * a good list without a GPU fails saying it needs one, having tuned and
 * written nothing. */
static void tune_list_reads_its_list(void **state)
{
    fixture *fx = *state;
    static const struct {
        const char *text, *env, *devices;
        int status;
        const char *says[2];
    } cases[] = {
        {"# sizes\ntranspose --type f32 --size 64x64\n\n"
         "transpose --type f32 --size 64x64   # again\n"
         "reduce --n 4096\n",
         NULL, NULL, 1, {"no CUDA driver", "tuning a list needs a CUDA GPU"}},
        {"transpose --seed 3 --size 64x64\n", NULL, NULL, 2,
         {"line 1", "give it to tune-list"}},
        {"transpose --size 64x64\nspace transpose\n", NULL, NULL, 2,
         {"line 2", "is a command, not a family"}},
        {"transpose --size 3x\n", NULL, NULL, 2,
         {"--size needs", "line 1: not a problem"}},
        {"transpose --type f99\n", NULL, NULL, 2, {"f99", "line 1"}},
        {"# nothing\n\n", NULL, NULL, 2, {"no problem in it", "a line"}},
        {"transpose --size 64x64\ntranspose \x1b[2J--size 64x64\n", NULL,
         NULL, 2, {"line 2: a control character (0x1b)", "not a problem"}},
        {"transpose --size 64x64\n", "AUTOTUNE_JOB_LEASE=soon", NULL, 2,
         {"AUTOTUNE_JOB_LEASE needs seconds", "'soon'"}},
        {"transpose --size 64x64\n", NULL, "0,x", 2,
         {"--devices needs", "'0,x'"}},
        {"transpose --size 64x64\n", NULL, "all", 1,
         {"no CUDA driver", "tuning a list needs a CUDA GPU"}},
    };
    char path[128];
    snprintf(path, sizeof path, "%s/list.txt", fx->dir);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(cases[i].text, f);
        fclose(f);
        const char *extra[] = {cases[i].env, NULL};
        const char *args[] = {"tune-list", "list.txt", "--devices",
                              cases[i].devices, NULL};
        if (!cases[i].devices)
            args[2] = NULL;
        run(fx, args, extra);
        CHECK(fx, fx->status == cases[i].status);
        CHECK(fx, fx->out[0] == '\0');
        CHECK(fx, strstr(fx->err, cases[i].says[0]));
        CHECK(fx, strstr(fx->err, cases[i].says[1]));
        CHECK(fx, count_entries(fx, ".cu") == 0);
    }
    /* A NUL byte, and a list that is not there. */
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite("transpose\0--size 64x64\n", 1, 24, f);
    fclose(f);
    run(fx, (const char *[]){"tune-list", "list.txt", NULL}, NULL);
    CHECK(fx, fx->status == 2 && strstr(fx->err, "a NUL byte"));
    run(fx, (const char *[]){"tune-list", "none.txt", NULL}, NULL);
    CHECK(fx, fx->status == 2 && strstr(fx->err, "none.txt"));
}

#define BAD(i) {bad[i].name, bad_input, setup, teardown, (void *)&bad[i]}
#define TEST(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

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
    _Static_assert(sizeof bad / sizeof bad[0] == 44, "a BAD() per case");
    const struct CMUnitTest tests[] = {
        BAD(0),  BAD(1),  BAD(2),  BAD(3),  BAD(4),  BAD(5),
        BAD(6),  BAD(7),  BAD(8),  BAD(9),  BAD(10), BAD(11),
        BAD(12), BAD(13), BAD(14), BAD(15), BAD(16), BAD(17),
        BAD(18), BAD(19), BAD(20), BAD(21), BAD(22), BAD(23),
        BAD(24), BAD(25), BAD(26), BAD(27), BAD(28), BAD(29),
        BAD(30), BAD(31), BAD(32), BAD(33), BAD(34), BAD(35),
        BAD(36), BAD(37), BAD(38), BAD(39), BAD(40), BAD(41),
        BAD(42), BAD(43),
        TEST(tune_list_reads_its_list),
        TEST(replay_table_and_json),
        TEST(replay_trace),
        TEST(replay_missing_record),
        TEST(missing_cache_dir),
        TEST(arch_auto_without_driver),
        TEST(emit_untuned),
        TEST(emit_f64_named),
        TEST(emit_spec_unverified),
        TEST(emit_to_stdout),
        TEST(emit_through_symlink),
        TEST(space_lists_points),
        TEST(space_f64_drops_vec4),
        TEST(emit_batched_i8),
        TEST(bench_without_driver),
        TEST(bench_tune_without_driver),
        TEST(bench_sweep_lists_problems),
        TEST(help),
        TEST(version),
        TEST(no_arguments),
    };
    int rc = AT_RUN_TESTS(tests);
    free(cli_bin);
    return rc;
}
