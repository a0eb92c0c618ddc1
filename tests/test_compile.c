/* The compile pool and its worker processes: NVRTC's errors named with the
 * variant, a pool stopped with jobs queued, the compile time limit, a
 * worker that dies, the options cache keys see, several points in one
 * program, and bench tune's calibration of NVRTC's speed. The sweep of
 * every point is tests/test_sweep.c. Needs NVRTC, not a GPU. */
#include "test_problem.h"
#include "tap.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gen/expand.h"
#include "gen/family.h"
#include "runtime/driver/driver.h"
#include "runtime/tune/tune_impl.h"
#include "runtime/driver/compile_proc.h"

static void bad_arch_is_an_nvrtc_error(void **state)
{
    (void)state;
    void *cubin = NULL;
    size_t size = 0;
    at_err e = {0};
    at_compile_opts o = {.sm = 1};
    int rc = at_compile("extern \"C\" __global__ void k() {}", "k", &o,
                        &cubin, &size, &e);
    assert_true(rc == AUTOTUNE_ENVRTC || rc == AUTOTUNE_ECOMPILE);
    assert_non_null(strstr(e.msg, "[variant k]"));
    assert_null(cubin);
}

static void pool_stops_with_jobs_queued(void **state)
{
    (void)state;
    at_pool *pool;
    at_err e = {0};
    assert_int_equal(at_pool_create(&pool, 1, &e), 0);
    enum { N = 8 };
    at_job jobs[N];
    memset(jobs, 0, sizeof jobs);
    for (int i = 0; i < N; ++i) {
        jobs[i].opts.sm = 90;
        snprintf(jobs[i].variant, sizeof jobs[i].variant, "job%d", i);
        jobs[i].src = strdup("extern \"C\" __global__ void at_kernel() {}");
        at_pool_submit(pool, &jobs[i]);
    }
    at_pool_destroy(pool); /* must not hang, must mark every job done */
    for (int i = 0; i < N; ++i) {
        assert_int_equal(jobs[i].done, 1);
        at_job_release(&jobs[i]);
    }
}

static const char *tiny = "extern \"C\" __global__ void at_kernel(int *p) "
                         "{ p[threadIdx.x] = 1; }";

/* A limit no compilation meets: cancelled, and said so; in this process
 * and in a worker process alike. */
static void time_limit_cancels(void **state)
{
    (void)state;
    at_compile_opts o = {.sm = 90, .limit_s = 1e-6};
    void *cubin = NULL;
    size_t size = 0;
    at_err e = {0};
    assert_int_equal(at_compile(tiny, "limited", &o, &cubin, &size, &e),
                     AUTOTUNE_ECOMPILE);
    assert_non_null(strstr(e.msg, "time limit"));
    assert_non_null(strstr(e.msg, "[variant limited]"));
    assert_null(cubin);

    at_cproc w;
    assert_int_equal(at_cproc_spawn(&w, &e), 0);
    at_err_clear(&e);
    assert_int_equal(at_cproc_compile(&w, tiny, "limited", &o, &cubin,
                                      &size, &e),
                     AUTOTUNE_ECOMPILE);
    assert_non_null(strstr(e.msg, "time limit"));
    assert_int_not_equal(w.pid, 0); /* NVRTC stopped; the worker lives */
    o.limit_s = 60;
    assert_int_equal(at_cproc_compile(&w, tiny, "unlimited", &o, &cubin,
                                      &size, &e), 0);
    assert_memory_equal(cubin, "\x7f" "ELF", 4);
    free(cubin);
    at_cproc_stop(&w);
    assert_int_equal(w.pid, 0);
}

/* A worker that dies fails its job with a message naming it, not the
 * run. */
static void dead_worker_is_a_compile_failure(void **state)
{
    (void)state;
    at_cproc w;
    at_err e = {0};
    assert_int_equal(at_cproc_spawn(&w, &e), 0);
    pid_t pid = w.pid;
    assert_int_equal(kill(pid, SIGKILL), 0);
    at_compile_opts o = {.sm = 90, .limit_s = 60};
    void *cubin = NULL;
    size_t size = 0;
    assert_int_equal(at_cproc_compile(&w, tiny, "orphan", &o, &cubin, &size,
                                      &e),
                     AUTOTUNE_ECOMPILE);
    char want[64];
    snprintf(want, sizeof want, "compile worker process %d", (int)pid);
    assert_non_null(strstr(e.msg, want));
    assert_non_null(strstr(e.msg, "[variant orphan]"));
    assert_int_equal(w.pid, 0);
    assert_null(cubin);
    at_cproc_stop(&w); /* nothing left to stop: no error, no hang */
}

/* The options that shape the code, as cache keys see them. */
static void options_text(void **state)
{
    (void)state;
    char buf[128];
    at_compile_opts o = {.sm = 90};
    at_compile_options_text(&o, buf, sizeof buf);
    assert_string_equal(buf, "--gpu-architecture=sm_90 --std=c++17");
    o.sm = 80;
    at_compile_options_text(&o, buf, sizeof buf);
    assert_string_equal(buf, "--gpu-architecture=sm_80 --std=c++17");
}

/* Several points in one program: every kernel is there under its name;
 * the same point twice gives the same kernel hash, another point another
 * (what lets the tuner time identical code once). */
static void program_of_many_points(void **state)
{
    (void)state;
    const at_family *f = at_family_find("transpose");
    test_problem u = {"transpose", "f32", 4096, 4096, 0, 0};
    at_problem p;
    at_limits l;
    at_err e = {0};
    assert_int_equal(test_problem_make(&p, &u, &e), 0);
    assert_true(at_limits_for_arch(90, &l));
    at_point *pts;
    size_t n;
    assert_int_equal(at_space_points(f, &p, &l, &pts, &n, &e), 0);
    enum { K = 16 };
    const at_point *batch[K];
    for (int i = 0; i < K; ++i)
        batch[i] = &pts[(size_t)i * 37 % n];
    batch[K - 1] = batch[0]; /* the same point again */
    char *src = at_expand_program(&p, batch, NULL, K, &e);
    assert_non_null(src);
    at_compile_opts o = {.sm = 90, .limit_s = 600};
    void *cubin = NULL;
    size_t size = 0;
    if (at_compile(src, "batch", &o, &cubin, &size, &e))
        fail_msg("%s", e.msg);
    uint64_t h[K];
    for (int i = 0; i < K; ++i) {
        char kernel[32], text[64];
        at_program_kernel(i, kernel, sizeof kernel);
        snprintf(text, sizeof text, ".text.%s", kernel);
        const unsigned char *d;
        size_t len;
        uint32_t info;
        assert_int_equal(at_elf_section(cubin, size, text, &d, &len, &info),
                         1);
        assert_true(len > 0);
        h[i] = at_elf_kernel_hash(cubin, size, kernel);
        assert_true(h[i] != 0);
    }
    assert_true(h[0] == h[K - 1]);
    assert_true(h[0] != h[1]);
    assert_int_equal(at_elf_kernel_hash(cubin, size, "no_such_kernel"), 0);
    assert_int_equal(at_elf_section("not an elf image at all, no", 27,
                                    ".text", NULL, NULL, NULL),
                     -1);
    free(cubin);
    free(src);
    free(pts);
}

/* A kernel's registers, read from the cubin: many live values take more
 * than 32; the same code bounded to 8 blocks of 256 (32 registers at
 * most) takes no more; an unknown kernel says 0. */
static void kernel_registers(void **state)
{
    (void)state;
    static const char src[] =
        "#define BODY                                                   \\\n"
        "    float a[48];                                               \\\n"
        "    for (int i = 0; i < 48; ++i) a[i] = in[threadIdx.x + i];   \\\n"
        "    for (int r = 0; r < 8; ++r)                                \\\n"
        "        for (int i = 0; i < 48; ++i)                           \\\n"
        "            a[i] = a[i] * a[(i + r) % 48] + 1.f;               \\\n"
        "    float t = 0;                                               \\\n"
        "    for (int i = 0; i < 48; ++i) t += a[i];                    \\\n"
        "    out[threadIdx.x] = t;\n"
        "extern \"C\" __global__ void free_k(const float *in, float *out) "
        "{ BODY }\n"
        "extern \"C\" __global__ void __launch_bounds__(256, 8) "
        "bound_k(const float *in, float *out) { BODY }\n";
    at_compile_opts o = {.sm = 90, .limit_s = 600};
    at_err e = {0};
    void *cubin = NULL;
    size_t size = 0;
    if (at_compile(src, "registers", &o, &cubin, &size, &e))
        fail_msg("%s", e.msg);
    const int free_regs = at_elf_kernel_regs(cubin, size, "free_k");
    const int bound_regs = at_elf_kernel_regs(cubin, size, "bound_k");
    printf("# registers: %d free, %d bounded to 8 blocks of 256\n",
           free_regs, bound_regs);
    assert_true(free_regs > 32 && free_regs <= 255);
    assert_true(bound_regs > 0 && bound_regs <= 32);
    assert_int_equal(at_elf_kernel_regs(cubin, size, "no_such_kernel"), 0);
    free(cubin);
}

/* Programs shrink near a walk's end to a worker's share of what is left:
 * a 1840-point walk on 16 workers proposes full programs first, never a
 * larger one after a smaller, and ends with 16 programs of one point, so
 * no worker is left compiling a whole program while the rest wait. */
static void program_points_share_the_tail(void **state)
{
    (void)state;
    assert_int_equal(at_program_points(1840, 0, 16), PROG_POINTS);
    assert_int_equal(at_program_points(1840, 1840 - 200, 16), 13);
    assert_int_equal(at_program_points(1840, 1839, 16), 1);
    assert_int_equal(at_program_points(1840, 1840, 16), 1);
    /* One worker, or none counted (taken as one): the rest at once. */
    assert_int_equal(at_program_points(1840, 1830, 1), 10);
    assert_int_equal(at_program_points(1840, 1830, 0), 10);
    int sizes[1840], n = 0;
    size_t proposed = 0;
    while (proposed < 1840) {
        int k = at_program_points(1840, proposed, 16);
        assert_true(k >= 1 && k <= PROG_POINTS);
        assert_true(n == 0 || k <= sizes[n - 1]);
        sizes[n++] = k;
        proposed += (size_t)k;
    }
    assert_int_equal(proposed, 1840);
    assert_int_equal(sizes[0], PROG_POINTS);
    for (int i = n - 16; i < n; ++i)
        assert_int_equal(sizes[i], 1);
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *x, int n)
{
    double s[8];
    memcpy(s, x, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_d);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* Every sequence of samples from a grid around the cutoff: where racing
 * stops a variant, its median so far is slower than the cutoff (it could
 * not join the leaders); where no sample is clearly slower, no way the
 * remaining samples could fall would have made it a leader; and a
 * variant as fast as the cutoff runs all its samples. */
static void racing_stops_only_variants_that_cannot_lead(void **state)
{
    (void)state;
    static const double grid[] = {0.95, 1.0, 1.01, 1.04, 1.06, 1.2};
    enum { G = sizeof grid / sizeof grid[0] };
    const double c = 0.2;
    for (int samples = 3; samples <= 5; samples += 2) {
        int total = 1;
        for (int i = 0; i < samples; ++i)
            total *= G;
        int stopped = 0;
        for (int seq = 0; seq < total; ++seq) {
            double x[8];
            int rest = seq;
            for (int i = 0; i < samples; ++i, rest /= G)
                x[i] = grid[rest % G] * c;
            for (int k = 1; k <= samples; ++k) {
                if (!at_measure_raced(x, k, samples, c))
                    continue;
                ++stopped;
                assert_true(median(x, k) > c);
                /* The quick margins aside, even the fastest remaining
                 * samples would leave the full median slower. */
                int quick = x[0] > 1.05 * c ||
                            (k == 2 && x[0] > 1.03 * c && x[1] > 1.03 * c);
                double best_case[8];
                memcpy(best_case, x, sizeof best_case);
                for (int i = k; i < samples; ++i)
                    best_case[i] = 0;
                if (!quick)
                    assert_true(median(best_case, samples) > c);
                break;
            }
            assert_int_equal(at_measure_raced(x, samples, samples, 0), 0);
        }
        assert_true(stopped > 0);
        double even[5] = {c, c, c, c, c};
        for (int k = 1; k <= samples; ++k)
            assert_int_equal(at_measure_raced(even, k, samples, c), 0);
    }
}

/* The host's NVRTC speed (bench tune's calibration): every compile of
 * every process counted, CPU time from the children; a source that does
 * not compile is said once, naming the call. */
static void calibration_counts_every_compile(void **state)
{
    (void)state;
    const char *src =
        "extern \"C\" __global__ void k(float *a, int n)\n"
        "{\n#pragma unroll\n"
        "    for (int i = 0; i < 64; ++i)\n"
        "        a[(i * n + threadIdx.x) % 4096] += i * a[threadIdx.x];\n"
        "}\n";
    at_calibration c;
    at_err e = {0};
    assert_int_equal(at_compile_calibrate(src, 90, 2, 2, &c, &e), 0);
    assert_int_equal(c.procs, 2);
    assert_int_equal(c.compiles, 4);
    assert_true(c.wall_s > 0);
    /* Four compiles in children: their time, not this process's. */
    assert_true(c.cpu_s > 0.004);
    at_err bad = {0};
    int rc = at_compile_calibrate("not CUDA at all", 90, 2, 1, &c, &bad);
    assert_true(rc == AUTOTUNE_ECOMPILE || rc == AUTOTUNE_ENVRTC);
    assert_non_null(strstr(bad.msg, "[variant calibration]"));
    assert_int_equal(c.compiles, 0);
    at_err none = {0};
    assert_int_equal(at_compile_calibrate(src, 90, 0, 1, &c, &none),
                     AUTOTUNE_EINVALID);
}

int main(void)
{
    at_err e = {0};
    if (at_nvrtc_load(&e))
        return at_skip_all(e.msg);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_arch_is_an_nvrtc_error),
        cmocka_unit_test(pool_stops_with_jobs_queued),
        cmocka_unit_test(time_limit_cancels),
        cmocka_unit_test(dead_worker_is_a_compile_failure),
        cmocka_unit_test(options_text),
        cmocka_unit_test(program_of_many_points),
        cmocka_unit_test(kernel_registers),
        cmocka_unit_test(program_points_share_the_tail),
        cmocka_unit_test(racing_stops_only_variants_that_cannot_lead),
        cmocka_unit_test(calibration_counts_every_compile),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
