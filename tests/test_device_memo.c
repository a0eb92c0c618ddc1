/* The host's memo of its GPUs (runtime/driver/device_memo.c): a cache hit
 * from `autotune transpose --arch auto` with no driver that could start
 * (AUTOTUNE_LIBCUDA names libm: it opens, as the memo's check of the
 * library needs, and has no cuInit), the GPUs' facts taken from the
 * memo, and each rule under which the memo does not answer (the command
 * then needs the driver, and says so). The kernel module's listing is a
 * folder of the test's own (AT_TEST_NVIDIA, test builds only); the memo
 * and the cache are real files. On a GPU, tests/gpu/hit_memo.sh runs the
 * same against the real module and driver. */
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/readfile.h"
#include "cli_run.h"
#include "gen/family.h"
#include "gen/problem.h"
#include "runtime/driver/driver.h"
#include "runtime/store/store.h"

#define UUID0 "GPU-11111111-2222-3333-4444-555555555555"
#define UUID1 "GPU-66666666-7777-8888-9999-000000000000"
#define BUILD "580.159.04"
#define LIBCUDA "libm.so.6" /* opens; no cuInit */
/* An H100's facts, as the memo holds them (limits those of sm_90). */
#define H100 "13000 9 0 132 52428800 1024 232448 1980000 85017755648 " \
             "NVIDIA H100 80GB HBM3\n"

typedef struct fixture {
    char dir[64], nv[96], xdg[96], memo[700], cache[96];
    char lib[64]; /* at_cu_library_id of LIBCUDA */
    int status;
    char *out, *err;
} fixture;

/* A memo line: UUID BUILD LIBRARY then the facts. */
static void memo_line(const fixture *fx, char *buf, size_t n,
                      const char *uuid, const char *build, const char *facts)
{
    snprintf(buf, n, "%s %s %s %s", uuid, build, fx->lib, facts);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, 0644), 0); /* whatever the umask */
}

/* A GPU in the module's listing, by its PCI slot. */
static void module_gpu(const fixture *fx, const char *slot, const char *uuid,
                       const char *excluded)
{
    char path[256], text[256];
    snprintf(path, sizeof path, "%s/gpus/%s", fx->nv, slot);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/gpus/%s/information", fx->nv, slot);
    snprintf(text, sizeof text, "Model: \t\t NVIDIA H100 80GB HBM3\n"
             "IRQ:   \t\t 42\nGPU UUID: \t %s\nBus Type: \t PCIe\n"
             "GPU Excluded:\t %s\n", uuid, excluded);
    write_file(path, text);
}

/* The tuned entry a hit finds: the default point of f32 8192x8192 on the
 * memo's H100, under the key the command computes from the memo. */
static void put_entry(const fixture *fx)
{
    at_err e = {0};
    at_problem p;
    at_limits l;
    assert_int_equal(at_problem_make(&p, "transpose", "f32",
                                     "rows=8192 cols=8192", &e), 0);
    assert_true(at_limits_for_arch(90, &l));
    assert_int_equal(at_nvrtc_load(&e), 0);
    at_device d = {.sms = 132, .driver_version = 13000};
    snprintf(d.name, sizeof d.name, "NVIDIA H100 80GB HBM3");
    snprintf(d.driver_build, sizeof d.driver_build, BUILD);
    snprintf(d.nvrtc, sizeof d.nvrtc, "%s", at_nvrtc_version_str());
    at_entry en;
    memset(&en, 0, sizeof en);
    assert_int_equal(at_key_fill(&en.key, &d, &p, &l, &e), 0);
    at_point pt;
    p.family->ops.default_point(&p, 90, &pt);
    p.family->ops.point_name(p.family, &pt, en.point, sizeof en.point);
    at_point_params(p.family, &pt, en.params, sizeof en.params);
    static unsigned char cubin[64] = {0x7f, 'E', 'L', 'F'};
    en.cubin = cubin;
    en.cubin_size = sizeof cubin;
    en.median_ms = 0.1901;
    en.gbps = 2824.7;
    en.copy_gbps = 2913.2;
    en.frac_copy = en.gbps / en.copy_gbps;
    en.points = 920;
    snprintf(en.created, sizeof en.created, "2026-11-27T12:00:00Z");
    at_cache *c = NULL;
    assert_int_equal(at_cache_open(&c, fx->cache, &e), 0);
    assert_int_equal(at_cache_put(c, &en, 0, &e), 0);
    at_cache_close(c);
}

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    assert_non_null(fx);
    snprintf(fx->dir, sizeof fx->dir, "/tmp/at_memo_XXXXXX");
    assert_non_null(mkdtemp(fx->dir));
    snprintf(fx->nv, sizeof fx->nv, "%s/nvidia", fx->dir);
    snprintf(fx->xdg, sizeof fx->xdg, "%s/xdg", fx->dir);
    char name[300];
    at_device_memo_name(name, sizeof name);
    snprintf(fx->memo, sizeof fx->memo, "%s/autotune/%s", fx->xdg, name);
    setenv("AUTOTUNE_LIBCUDA", LIBCUDA, 1);
    assert_int_equal(at_cu_library_id(fx->lib, sizeof fx->lib), 0);
    snprintf(fx->cache, sizeof fx->cache, "%s/cache.db", fx->dir);
    char path[256];
    assert_int_equal(mkdir(fx->nv, 0755), 0);
    snprintf(path, sizeof path, "%s/gpus", fx->nv);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/version", fx->nv);
    write_file(path, "NVRM version: NVIDIA UNIX x86_64 Kernel Module  "
               BUILD "  Release Build  (dvs-builder@U16)\n");
    assert_int_equal(mkdir(fx->xdg, 0755), 0);
    snprintf(path, sizeof path, "%s/autotune", fx->xdg);
    assert_int_equal(mkdir(path, 0755), 0);
    assert_int_equal(chmod(path, 0755), 0); /* whatever the umask */
    module_gpu(fx, "0000:19:00.0", UUID0, "No");
    char line[512];
    memo_line(fx, line, sizeof line, UUID0, BUILD, H100);
    write_file(fx->memo, line);
    put_entry(fx);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    at_rm_tree(fx->dir);
    free(fx->out);
    free(fx->err);
    free(fx);
    return 0;
}

/* `autotune transpose --arch auto` for rows x 8192 with the driver forced
 * absent; extra: one more environment entry (or NULL). */
static void run(fixture *fx, const char *rows, const char *extra)
{
    const char *bin = getenv("AUTOTUNE_BIN");
    assert_non_null(bin);
    char cache[160], xdg[160], nv[160], home[96];
    snprintf(cache, sizeof cache, "AUTOTUNE_CACHE=%s", fx->cache);
    snprintf(xdg, sizeof xdg, "XDG_CACHE_HOME=%s", fx->xdg);
    snprintf(nv, sizeof nv, "AT_TEST_NVIDIA=%s", fx->nv);
    snprintf(home, sizeof home, "HOME=%s", fx->dir);
    /* extra first: getenv takes the first of a name */
    char *env[] = {(char *)(extra ? extra : "AT_NOTHING=1"), cache, xdg, nv,
                   home, "AUTOTUNE_LIBCUDA=" LIBCUDA,
                   "ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0", NULL};
    char *argv[] = {(char *)bin, "transpose", "--arch", "auto", "--rows",
                    (char *)rows, "--cols", "8192", "-o", "t.cu", NULL};
    free(fx->out);
    free(fx->err);
    at_run_captured(bin, argv, env, fx->dir, &fx->status, &fx->out,
                    &fx->err);
}

/* The memo answers: the cached point, emitted, no driver loaded. */
static void hit_without_the_driver(void **state)
{
    fixture *fx = *state;
    run(fx, "8192", NULL);
    if (fx->status != 0 || !strstr(fx->out, "from the cache") ||
        !strstr(fx->out, "the driver not started"))
        fail_msg("status %d\nout: %s\nerr: %s", fx->status, fx->out,
                 fx->err);
    assert_non_null(strstr(fx->out, "NVIDIA H100 80GB HBM3"));
    char path[128];
    snprintf(path, sizeof path, "%s/t.cu", fx->dir);
    char *cu = NULL;
    size_t len;
    at_err e = {0};
    assert_int_equal(at_read_file(path, &cu, &len, &e), 0);
    assert_non_null(strstr(cu, "tile32x32_blk32x8"));
    assert_null(strstr(cu, "NOT TUNED"));
    free(cu);
}

/* Where the memo does not answer, the command needs the driver, which
 * cannot start: it says so. */
static void needs_the_driver(fixture *fx, const char *rows,
                             const char *extra, const char *why)
{
    run(fx, rows, extra);
    if (fx->status == 0 || !strstr(fx->err, "CUDA driver"))
        fail_msg("%s: status %d\nout: %s\nerr: %s", why, fx->status,
                 fx->out, fx->err);
}

/* The memo's text: lines of (UUID, build, facts), NULL-ended. */
static void write_memo(const fixture *fx, const char *const *l)
{
    char text[2048] = "", line[512];
    for (; l[0]; l += 3) {
        memo_line(fx, line, sizeof line, l[0], l[1], l[2]);
        strcat(text, line);
    }
    write_file(fx->memo, text);
}

static void rules_where_it_does_not_answer(void **state)
{
    fixture *fx = *state;
    char path[256];
    /* The ordinal CUDA_VISIBLE_DEVICES would give is the driver's. */
    needs_the_driver(fx, "8192", "CUDA_VISIBLE_DEVICES=0",
                     "CUDA_VISIBLE_DEVICES");
    /* A miss: the tune loads the driver (at_device_resolve), so the
     * device was opened from the memo (open_place's hint is absent). */
    needs_the_driver(fx, "4096", NULL, "a miss");
    assert_null(strstr(fx->err, "--arch auto needs a CUDA GPU"));
    /* Another driver library than the one remembered; none at all. */
    write_file(fx->memo, UUID0 " " BUILD " 1:2:3 " H100);
    needs_the_driver(fx, "8192", NULL, "another driver library");
    write_memo(fx, (const char *[]){UUID0, BUILD, H100, NULL});
    needs_the_driver(fx, "8192", "AUTOTUNE_LIBCUDA=/nonexistent/libcuda.so.1",
                     "no driver library");
    /* Another module version than the one remembered. */
    write_memo(fx, (const char *[]){UUID0, "575.57.08", H100, NULL});
    needs_the_driver(fx, "8192", NULL, "another build");
    /* A second GPU not remembered, then remembered as another kind. */
    module_gpu(fx, "0000:2a:00.0", UUID1, "No");
    write_memo(fx, (const char *[]){UUID0, BUILD, H100, NULL});
    needs_the_driver(fx, "8192", NULL, "a GPU not remembered");
    write_memo(fx, (const char *[]){
        UUID0, BUILD, H100, UUID1, BUILD,
        "13000 9 0 114 52428800 1024 232448 1755000 85017755648 "
        "NVIDIA H100 PCIe\n", NULL});
    needs_the_driver(fx, "8192", NULL, "GPUs of two kinds");
    /* Two of one kind: it answers, for either ordinal, not a third. */
    write_memo(fx, (const char *[]){UUID0, BUILD, H100, UUID1, BUILD, H100,
                                    NULL});
    run(fx, "8192", NULL);
    assert_int_equal(fx->status, 0);
    /* One excluded from CUDA. */
    snprintf(path, sizeof path, "%s/gpus/0000:2a:00.0/information", fx->nv);
    write_file(path, "GPU UUID: \t " UUID1 "\nGPU Excluded:\t Yes\n");
    needs_the_driver(fx, "8192", NULL, "a GPU excluded");
    write_file(path, "GPU UUID: \t " UUID1 "\nGPU Excluded:\t No\n");
    /* A MIG instance: CUDA's devices are slices. */
    snprintf(path, sizeof path, "%s/capabilities", fx->nv);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/capabilities/gpu0", fx->nv);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/capabilities/gpu0/mig", fx->nv);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/capabilities/gpu0/mig/gi1", fx->nv);
    assert_int_equal(mkdir(path, 0755), 0);
    needs_the_driver(fx, "8192", NULL, "a MIG instance");
    at_rm_tree(path);
    run(fx, "8192", NULL);
    assert_int_equal(fx->status, 0);
    /* A memo others may write, or in a folder others may: not trusted. */
    assert_int_equal(chmod(fx->memo, 0666), 0);
    needs_the_driver(fx, "8192", NULL, "a memo others may write");
    snprintf(path, sizeof path, "%s/autotune", fx->xdg);
    assert_int_equal(chmod(fx->memo, 0644), 0);
    assert_int_equal(chmod(path, 0777), 0);
    needs_the_driver(fx, "8192", NULL, "a memo's folder others may write");
    assert_int_equal(chmod(path, 0755), 0);
    run(fx, "8192", NULL);
    assert_int_equal(fx->status, 0);
    /* Lines that are not whole: a field short (the next line is not its
     * name), a number where none can be, an empty line. */
    char text[1024], line[512];
    memo_line(fx, line, sizeof line, UUID1, BUILD, H100);
    snprintf(text, sizeof text, "%s %s %s 13000 9 0 132 52428800 1024 "
             "232448 1980000 85017755648\n%s\n", UUID0, BUILD, fx->lib, line);
    write_file(fx->memo, text);
    needs_the_driver(fx, "8192", NULL, "a line without its name");
    write_file(fx->memo, UUID0 " " BUILD " x y z\n\n" UUID1 "\n");
    needs_the_driver(fx, "8192", NULL, "malformed lines");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(hit_without_the_driver, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(rules_where_it_does_not_answer,
                                        setup, teardown),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
