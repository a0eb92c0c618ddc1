/* NVRTC compiles every point of the transpose space, for every element
 * size, for sm_90 (and sm_80 under `make check-full`, which sets
 * AUTOTUNE_CHECK_FULL=1: a second architecture finds little the first
 * does not and doubles the suite's time), through the compile pool and its
 * worker processes, with one source that fails on purpose among them; the
 * time limit, and a worker that dies. Needs NVRTC, not a GPU. */
#include "tap.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gen/expand.h"
#include "gen/family.h"
#include "runtime/compile.h"
#include "runtime/compile_proc.h"
#include "runtime/elf.h"
#include "runtime/nvrtc_api.h"

/* Points per NVRTC program, as the tuner compiles them. */
enum { BATCH = 16 };

/* Every point of the space for an element size (types of one size expand
 * to the same source), as 16-point programs, plus one program in the
 * middle that must fail; every kernel of every cubin is found by name. */
static void compile_size(int bytes, int sm)
{
    const at_family *f = at_family_find("transpose");
    const at_type *type = NULL;
    for (int i = 0; at_type_at(i) && !type; ++i)
        if (at_type_at(i)->bytes == bytes)
            type = at_type_at(i);
    assert_non_null(type);
    autotune_problem u = {"transpose", type->name, 4099, 2053, 0, 0};
    at_problem p;
    at_limits l;
    at_err e = {0};
    assert_int_equal(at_problem_from_api(&p, &u, &e), 0);
    assert_true(at_limits_for_arch(sm, &l));
    at_point *pts;
    size_t n;
    assert_int_equal(at_space_points(f, &p, &l, &pts, &n, &e), 0);
    size_t progs = (n + BATCH - 1) / BATCH;
    /* One extra job, in the middle, that must fail. */
    size_t bad = progs / 2, total = progs + 1;
    at_job *jobs = calloc(total, sizeof *jobs);
    int *count = calloc(total, sizeof *count);
    at_pool *pool;
    assert_non_null(jobs);
    assert_non_null(count);
    /* Every core: no thread times a GPU here. */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    assert_int_equal(at_pool_create(&pool, cores > 0 ? (int)cores : 1, &e),
                     0);
    for (size_t i = 0, k = 0; i < total; ++i) {
        at_job *j = &jobs[i];
        j->opts.sm = sm;
        j->opts.limit_s = 600;
        j->index = i;
        if (i == bad) {
            snprintf(j->variant, sizeof j->variant, "broken_on_purpose");
            j->src = strdup("extern \"C\" __global__ void at_kernel() "
                            "{ this_is_not_cuda; }\n");
        } else {
            const at_point *sel[BATCH];
            count[i] = (int)(n - k < BATCH ? n - k : BATCH);
            for (int q = 0; q < count[i]; ++q)
                sel[q] = &pts[k + (size_t)q];
            f->point_name(sel[0], j->variant, sizeof j->variant);
            j->src = at_expand_program(&p, sel, NULL, count[i], &e);
            k += (size_t)count[i];
        }
        assert_non_null(j->src);
        at_pool_submit(pool, j);
    }
    size_t ok = 0;
    for (size_t i = 0; i < total; ++i) {
        at_job *j = &jobs[i];
        at_pool_wait(pool, j);
        if (i == bad) {
            assert_int_equal(j->rc, AUTOTUNE_ECOMPILE);
            assert_non_null(strstr(j->err.msg, "broken_on_purpose"));
            assert_non_null(strstr(j->err.msg, "this_is_not_cuda"));
        } else if (j->rc) {
            fail_msg("%s", j->err.msg);
        } else {
            /* A cubin is an ELF image with each point's kernel. */
            assert_true(j->size > 4);
            assert_memory_equal(j->cubin, "\x7f" "ELF", 4);
            for (int q = 0; q < count[i]; ++q) {
                char kernel[32];
                at_program_kernel(q, kernel, sizeof kernel);
                if (!at_elf_kernel_hash(j->cubin, j->size, kernel))
                    fail_msg("%s: no %s in the cubin", j->variant, kernel);
                ++ok;
            }
        }
        at_job_release(j);
    }
    at_pool_destroy(pool);
    printf("# %d-byte elements (%s and its kind), sm_%d: %zu of %zu points "
           "compiled in %zu programs, plus one failing on purpose\n", bytes,
           type->name, sm, ok, n, progs);
    assert_int_equal(ok, n);
    free(count);
    free(jobs);
    free(pts);
}

/* sm_90 always; other architectures in the full suite only. */
static int full_suite(void)
{
    const char *v = getenv("AUTOTUNE_CHECK_FULL");
    return v && strcmp(v, "1") == 0;
}

#define EVERY_POINT(bytes, sm)                                              \
    static void every_point_##bytes##_bytes_sm##sm(void **state)           \
    {                                                                       \
        (void)state;                                                        \
        compile_size(bytes, sm);                                            \
    }
EVERY_POINT(1, 90)
EVERY_POINT(2, 90)
EVERY_POINT(4, 90)
EVERY_POINT(8, 90)
EVERY_POINT(16, 90)
EVERY_POINT(1, 80)
EVERY_POINT(2, 80)
EVERY_POINT(4, 80)
EVERY_POINT(8, 80)
EVERY_POINT(16, 80)

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
    autotune_problem u = {"transpose", "f32", 4096, 4096, 0, 0};
    at_problem p;
    at_limits l;
    at_err e = {0};
    assert_int_equal(at_problem_from_api(&p, &u, &e), 0);
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
        cmocka_unit_test(every_point_1_bytes_sm90),
        cmocka_unit_test(every_point_2_bytes_sm90),
        cmocka_unit_test(every_point_4_bytes_sm90),
        cmocka_unit_test(every_point_8_bytes_sm90),
        cmocka_unit_test(every_point_16_bytes_sm90),
        cmocka_unit_test(every_point_1_bytes_sm80),
        cmocka_unit_test(every_point_2_bytes_sm80),
        cmocka_unit_test(every_point_4_bytes_sm80),
        cmocka_unit_test(every_point_8_bytes_sm80),
        cmocka_unit_test(every_point_16_bytes_sm80),
    };
    /* The last five (sm_80) run in the full suite only: not registered
     * at all otherwise (prove counts cmocka's skips as failures). */
    size_t n = sizeof tests / sizeof tests[0] - (full_suite() ? 0 : 5);
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return _cmocka_run_group_tests("tests", tests, n, NULL, NULL);
}
