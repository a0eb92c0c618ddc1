/* What real kernels need of a spec (issue 34), without a GPU: CUDA's
 * vector and complex types, real scalars, defines of the sizes, options
 * in the source and the emitted file, inputs as the user says (normal,
 * uniform, integers, a file, a copy of another argument), an init
 * kernel, references in files of their own, mismatch budgets and sums;
 * every new key's errors; paths kept inside the spec's folder; and
 * Kernel Tuner's examples (examples/kernels/kt) loading, compiling and
 * emitting files that build with nvcc beside the harness. */
#include "tap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/emit.h"
#include "gen/expand.h"
#include "spec/spec.h"
#include "spec/spec_space.h"
#include "runtime/driver/driver.h"

static char dir[] = "/tmp/at_spec_in_XXXXXX";

static void put(const char *name, const void *data, size_t n)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* A .npy of n f32 values 0.5, 1.5, ... (dtype as given). */
static void put_npy(const char *name, const char *descr, int n)
{
    char head[128];
    int k = snprintf(head, sizeof head, "{'descr': '%s', 'fortran_order': "
                     "False, 'shape': (%d,), }", descr, n);
    while ((k + 10) % 64 != 63)
        head[k++] = ' ';
    head[k++] = '\n';
    unsigned char buf[4096];
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)k;
    buf[9] = 0;
    memcpy(buf + 10, head, (size_t)k);
    for (int i = 0; i < n; ++i) {
        float v = (float)i + 0.5f;
        memcpy(buf + 10 + k + 4 * i, &v, 4);
    }
    put(name, buf, (size_t)(10 + k + 4 * n));
}

static int setup(void **state)
{
    (void)state;
    if (at_tmpdir_make(dir))
        return -1;
    static const char src[] =
        "#include <cuComplex.h>\n"
        "extern \"C\" __global__ void k(float2 *o, const float2 *p,\n"
        "    const int4 *q, cuFloatComplex *z, float a, int n) {\n"
        "#pragma unroll loop_unroll_factor_0\n"
        "    for (int i = 0; i < n; ++i) o[i] = p[i];\n"
        "}\n"
        "extern \"C\" __global__ void k_ref(float2 *o, const float2 *p,\n"
        "    const int4 *q, cuFloatComplex *z, float a, int n) {}\n"
        "extern \"C\" __global__ void make(float2 *p, int n) {}\n";
    put("k.cu", src, sizeof src - 1);
    static const char ref[] = "extern \"C\" __global__ void other_ref() {}\n";
    put("ref.cu", ref, sizeof ref - 1);
    put_npy("v.npy", "<f4", 8);
    put_npy("w.npy", "<f8", 8);
    put("raw.bin", "0123456789abcdef", 16);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return at_tmpdir_remove(dir);
}

/* The spec every case below starts from: each new key once. */
static const char base[] =
    "autotune_spec: 1\n"
    "kernel:\n"
    "  name: k\n"
    "  source: k.cu\n"
    "  options: [-DSCALE=3, --use_fast_math]\n"
    "  defines: {WIDTH: size_x, HALF: size_x / 2, ALPHA: 2.5, ROWS: rows}\n"
    "problem: {size: [64], scalars: {rows: 4, alpha: 0.25}, type: f32}\n"
    "tune_params:\n"
    "  block_size_x: [32, 64]\n"
    "  loop_unroll_factor_0: [0, 4]\n"
    "arguments:\n"
    "  - {name: o, type: float2, count: size_x, dir: out, mismatches: 2}\n"
    "  - {name: p, type: f32x2, count: size_x, init: {normal: [1, 2]}}\n"
    "  - {name: q, type: int4, count: 8, init: {integers: [-3, 3]}}\n"
    "  - {name: z, type: cuFloatComplex, count: 4, dir: inout,\n"
    "     init: {copy: c}, compare: sum, rtol: 1e-6}\n"
    "  - {name: a, type: float, value: alpha}\n"
    "  - {name: n, type: int, value: size_x * rows}\n"
    "  - {name: c, type: c64, count: 4, constant: true,\n"
    "     init: {file: v.npy}}\n"
    "init_kernel:\n"
    "  name: make\n"
    "  arguments: [p, {value: size_x, type: int}]\n"
    "  grid: [(size_x + 255) / 256]\n"
    "verify:\n"
    "  reference_kernel: k_ref\n"
    "  params: {block_size_x: 64}\n"
    "  block: [block_size_x]\n"
    "  grid: [size_x / block_size_x]\n";

/* f's problem at its defaults (f made here, not registered by name). */
static int begin(at_problem *p, const at_family *f, at_err *e)
{
    memset(p, 0, sizeof *p);
    p->family = f;
    p->type = at_type_find(f->types);
    for (int i = 0; i < f->n_fields; ++i)
        p->v[i] = f->fields[i].def;
    return p->type ? 0 : at_fail(e, AUTOTUNE_EINVALID, "no type");
}

static const at_family *load_base(const char *text)
{
    at_spec s;
    const at_family *f;
    at_err e = {0};
    if (at_spec_load_text(text, "t.yaml", dir, &s, &e) ||
        at_spec_family_make(&s, &f, &e))
        fail_msg("%s", e.msg);
    return f;
}

static void new_keys_load(void **state)
{
    (void)state;
    const at_family *f = load_base(base);
    const at_spec *s = at_spec_of(f);
    assert_string_equal(f->types, "f32"); /* problem.type */
    assert_string_equal(s->args[0].type->name, "f32x2");
    assert_string_equal(s->args[1].type->ctype, "float2");
    assert_string_equal(s->args[2].type->name, "i32x4");
    assert_string_equal(s->args[3].type->name, "c64");
    assert_int_equal(s->args[1].init, AT_INIT_NORMAL);
    assert_true(s->args[1].init_a == 1 && s->args[1].init_b == 2);
    assert_int_equal(s->args[2].init, AT_INIT_INTEGERS);
    assert_int_equal(s->args[3].init, AT_INIT_COPY);
    assert_int_equal(s->args[3].copy_of, 6);
    assert_int_equal(s->args[3].compare, AT_COMPARE_SUM);
    assert_true(s->args[4].real && s->args[4].real_scalar == 1);
    assert_int_equal(s->args[6].data_bytes, 32); /* 8 f32: 4 c64 */
    assert_true(s->scalar_real[1] && !s->scalar_real[0]);
    assert_string_equal(s->init_kernel, "make");
    assert_true(s->ref_given[0] && s->ref_params[0] == 64);
    assert_string_equal(f->nvrtc_options, "--use_fast_math");
    assert_true(f->caps & AT_CAP_TOOLKIT_HEADERS);
    assert_true(f->caps & AT_CAP_DEVICE_REFERENCE);
    assert_true(f->caps & AT_CAP_INIT_KERNEL);
    /* The problem: real scalars by text, in the key; no type suffix
     * unless named. */
    at_problem p;
    at_err e = {0};
    assert_int_equal(begin(&p, f, &e), 0);
    assert_int_equal(at_problem_set_text(&p, "size_x=128 alpha=0.5", &e), 0);
    assert_int_equal(at_problem_finish(&p, &e), 0);
    char key[512], name[96];
    at_problem_key_text(&p, key, sizeof key);
    assert_string_equal(key, "size_x=128 rows=4 alpha=0.5");
    at_problem_kind(&p, name, sizeof name);
    assert_string_equal(name, "k_f32");
    assert_int_equal(at_problem_set(&p, "alpha", "x", &e), AUTOTUNE_ERANGE);
    assert_non_null(strstr(e.msg, "needs a finite number"));
    /* The variant's source: the point (a loop_unroll_factor as Kernel
     * Tuner makes it), the defines at this size, the -D. */
    at_point pt = {{32, 0}};
    char *src = at_expand(&p, &pt, "at_kernel", NULL, &e);
    assert_non_null(src);
    static const char *const want[] = {
        "#define block_size_x 32\n",
        "#pragma nv_diag_suppress 20168\nconstexpr int loop_unroll_factor_0 "
        "= 0;\n",
        "#define WIDTH 128\n", "#define HALF 64\n", "#define ALPHA 2.5\n",
        "#define ROWS 4\n", "#define SCALE 3\n"};
    for (size_t i = 0; i < sizeof want / sizeof *want; ++i)
        if (!strstr(src, want[i]))
            fail_msg("no '%s' in:\n%s", want[i], src);
    free(src);
    pt.v[1] = 4;
    src = at_expand(&p, &pt, "at_kernel", NULL, &e);
    assert_non_null(strstr(src, "constexpr int loop_unroll_factor_0 = 4;"));
    assert_null(strstr(src, "nv_diag_suppress"));
    free(src);
    at_spec_family_free(f);
}

static void bad(const char *from, const char *to, const char *want)
{
    char text[4096];
    const char *at = strstr(base, from);
    if (!at)
        fail_msg("no '%s' in the base spec", from);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - base), base, to,
             at + strlen(from));
    at_spec s;
    const at_family *f = NULL;
    at_err e = {0};
    int rc = at_spec_load_text(text, "t.yaml", dir, &s, &e);
    if (!rc)
        rc = at_spec_family_make(&s, &f, &e);
    if (!rc) { /* what the problem's sizes decide */
        at_problem p;
        rc = begin(&p, f, &e);
        if (!rc)
            rc = at_problem_finish(&p, &e);
        at_spec_family_free(f);
    }
    if (rc == 0 || !strstr(e.msg, want) || strncmp(e.msg, "t.yaml", 6))
        fail_msg("wanted '%s', got %d '%s' for:\n%s", want, rc, e.msg, text);
}

static void new_key_errors(void **state)
{
    (void)state;
    static const struct {
        const char *from, *to, *want;
    } cases[] = {
        {"type: float2", "type: float3", "u8x4 (uchar4)"},
        {"type: f32}", "type: float2}", "problem.type: unknown type"},
        {"ROWS: rows", "ROWS: block_size_x",
         "a define reads the sizes and scalars only"},
        {"ROWS: rows", "ROWS: alpha", "alpha, a real scalar"},
        {"value: size_x * rows", "value: size_x * alpha", "a real scalar"},
        {"value: size_x * rows", "value: 2.5",
         "a real value for a scalar of type i32"},
        {"dir: out, mismatches: 2", "dir: out, init: zeros",
         "init is for inputs"},
        {"init: {normal: [1, 2]}", "init: {normal: [1, 0]}",
         "standard deviation"},
        {"init: {normal: [1, 2]}", "init: {normal: [1, 2], file: v.npy}",
         "a mapping of one form"},
        {"init: {normal: [1, 2]}", "init: gaussian",
         "expected one of random, zeros, ones, iota, normal"},
        {"integers: [-3, 3]", "integers: [0.5, 3]", "whole numbers"},
        {"name: q, type: int4, count: 8, init: {integers: [-3, 3]}",
         "name: q, type: u8, count: 8, init: {integers: [0, 256]}",
         "from 0 to 255"},
        {"init: {copy: c}", "init: {copy: nothing}", "is not another buffer"},
        {"init: {copy: c}", "init: {copy: o}", "is not another buffer"},
        {"init: {copy: c}", "init: {copy: p}", "of its own type"},
        {"file: v.npy", "file: w.npy", "holds '<f8' values"},
        {"file: v.npy", "file: /etc/hostname", "an absolute path"},
        {"file: v.npy", "file: ../at_spec_in_x/v.npy", "cannot open"},
        {"file: v.npy", "file: ../../etc/hostname",
         "leads out of the spec's folder"},
        {"file: v.npy", "file: raw.bin", "holds 16 bytes"},
        {"file: v.npy", "file: nope.npy", "cannot open 'nope.npy'"},
        {"dir: inout,\n     init: {copy: c}, compare: sum",
         "dir: out,\n     compare: sum", "compare: sum needs dir: inout"},
        {"count: 8, init: {integers: [-3, 3]}",
         "count: 8, mismatches: 1", "are for outputs"},
        {"name: o, type: float2, count: size_x, dir: out, mismatches: 2",
         "name: o, type: u8, count: size_x, dir: out, mismatches: 2",
         "elements of 4 bytes or more"},
        {"params: {block_size_x: 64}", "params: {tile: 64}",
         "not a parameter"},
        {"  params: {block_size_x: 64}\n", "",
         "unless verify.params gives it"},
        {"  grid: [(size_x + 255) / 256]\n", "", "missing grid"},
        {"arguments: [p, {value", "arguments: [o, {value",
         "expected an input's name"},
        {"options: [-DSCALE=3", "options: [-D", "give -DNAME"},
        {"reference_kernel: k_ref\n  params: {block_size_x: 64}",
         "reference_point: {block_size_x: 64, loop_unroll_factor_0: 0}\n"
         "  source: ref.cu", "are a reference_kernel's"},
        {"reference_kernel: k_ref\n",
         "reference_kernel: k_ref\n  source: ref.cu\n",
         "the source ref.cu never names 'k_ref'"},
        {"name: make\n", "name: made\n", "init_kernel.name: the source"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i)
        bad(cases[i].from, cases[i].to, cases[i].want);
    /* A spec given as text names no file beside its source. */
    at_spec s;
    at_err e = {0};
    assert_int_equal(at_spec_load_mem(base, "t.yaml", NULL, "source", &s,
                                      &e), AUTOTUNE_EINVALID);
    assert_non_null(strstr(e.msg, "a spec given as text names no files"));
}

/* A link out of the spec's folder is refused like '..'. */
static void links_stay_inside(void **state)
{
    (void)state;
    char link[256];
    snprintf(link, sizeof link, "%s/out.cu", dir);
    assert_int_equal(symlink("/etc/hostname", link), 0);
    bad("source: k.cu", "source: out.cu", "leads out of the spec's folder");
    unlink(link);
}

/* The inputs' first contents: by init, from the seed and the index alone
 * (chunks give the same bytes), a copy the same values. */
static void inputs_made(void **state)
{
    (void)state;
    const at_family *f = load_base(base);
    at_problem p;
    at_err e = {0};
    assert_int_equal(begin(&p, f, &e), 0);
    assert_int_equal(at_problem_set(&p, "size_x", "65536", &e), 0);
    assert_int_equal(at_problem_finish(&p, &e), 0);
    size_t words = (p.in_bytes + 3) / 4;
    uint32_t *a = calloc(words, 4), *b = calloc(words, 4);
    assert_true(a && b);
    f->ops.input(&p, 7, 0, a, 0, words);
    for (size_t c = 0; c < words; c += 4096) /* in chunks */
        f->ops.input(&p, 7, 0, b, c, c + 4096 < words ? c + 4096 : words);
    assert_memory_equal(a, b, p.in_bytes);
    /* p: normal (1, 2) lanes; q: integers in [-3, 3]; c: the file's; z
     * (inout: in the input) a copy of c. */
    const float *pv = (const float *)a;
    double sum = 0, sq = 0;
    for (int i = 0; i < 2 * 65536; ++i) {
        sum += pv[i];
        sq += (pv[i] - 1) * (pv[i] - 1);
    }
    double mean = sum / (2 * 65536), sd = sqrt(sq / (2 * 65536));
    assert_true(fabs(mean - 1) < 0.03 && fabs(sd - 2) < 0.03);
    size_t q_off = (2 * 65536 * 4 + 255) / 256 * 256;
    const int *qv = (const int *)((const char *)a + q_off);
    int lo = 9, hi = -9;
    for (int i = 0; i < 32; ++i) {
        lo = qv[i] < lo ? qv[i] : lo;
        hi = qv[i] > hi ? qv[i] : hi;
    }
    assert_true(lo >= -3 && hi <= 3 && lo < hi);
    const float *zv = (const float *)((const char *)a + q_off + 256);
    const float *cv = (const float *)((const char *)a + q_off + 512);
    for (int i = 0; i < 8; ++i)
        assert_true(zv[i] == (float)i + 0.5f && cv[i] == zv[i]);
    /* Another seed, other values. */
    f->ops.input(&p, 8, 0, b, 0, words);
    assert_true(memcmp(a, b, 4096) != 0);
    free(a);
    free(b);
    at_spec_family_free(f);
}

/* The emitted file says the options and builds with them: -D as
 * #defines, the rest on the Build line; both launchers; the argument
 * types' headers. */
static void options_in_emitted_file(void **state)
{
    (void)state;
    const at_family *f = load_base(base);
    at_problem p;
    at_point pt = {{64, 4}};
    at_err e = {0};
    assert_int_equal(begin(&p, f, &e), 0);
    assert_int_equal(at_problem_finish(&p, &e), 0);
    char cu[128];
    snprintf(cu, sizeof cu, "%s/opts.cu", dir);
    at_provenance pv = {.sm = 90, .why = "test"};
    assert_int_equal(at_emit(cu, &p, &pt, "autotune_k", &pv, &e), 0);
    FILE *in = fopen(cu, "r");
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    text[n] = '\0';
    static const char *const want[] = {
        " * options:  --use_fast_math\n",
        "nvcc -arch=sm_90 --use_fast_math -c this.cu",
        "#define SCALE 3\n", "#include <cuComplex.h>\n",
        "extern \"C\" cudaError_t autotune_k(float2 *o, const float2 *p, "
        "const int4 *q, cuFloatComplex *z, const cuFloatComplex *c_host, "
        "long long size_x, long long rows, double alpha, cudaStream_t "
        "at_stream)",
        "extern \"C\" cudaError_t autotune_k_argv(void *const *at_args, "
        "cudaStream_t at_stream)",
        "return cudaErrorInvalidValue; /* n does not fit int */"};
    for (size_t i = 0; i < sizeof want / sizeof *want; ++i)
        if (!strstr(text, want[i]))
            fail_msg("no '%s' in:\n%s", want[i], text);
    at_spec_family_free(f);
}

/* The harness's manifest: parameters in the launcher's order, checks. */
static void manifest_says_it_all(void **state)
{
    (void)state;
    const at_family *f = load_base(base);
    at_problem p;
    at_err e = {0};
    assert_int_equal(begin(&p, f, &e), 0);
    assert_int_equal(at_problem_finish(&p, &e), 0);
    char *text = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&text, &n);
    assert_int_equal(at_spec_manifest(&p, "autotune_k", m, &e), 0);
    fclose(m);
    static const char *const want[] = {
        "autotune-data 1\nlauncher autotune_k\n",
        "param buffer o out 512 - 0\n", "param buffer p in 512 0 -\n",
        "param buffer q in 128 512 -\n", "param buffer z inout 32 768 768\n",
        "param constant c 32 1024\n", "param size size_x 64\n",
        "param scalar rows int 4\n", "param scalar alpha real 0.25\n",
        "check o 8 exact 2\n", "check z 8 sum 4 0 9.9999999999999995e-07\n"};
    for (size_t i = 0; i < sizeof want / sizeof *want; ++i)
        if (!strstr(text, want[i]))
            fail_msg("no '%s' in:\n%s", want[i], text);
    free(text);
    at_spec_family_free(f);
}

static const struct {
    const char *file;
    size_t points;
} kt[] = {
    {"convolution/convolution.yaml", 1080}, {"pnpoly/pnpoly.yaml", 5456},
    {"expdist/expdist.yaml", 640},          {"reduction/reduction.yaml", 2376},
    {"spmv/spmv.yaml", 128},                {"stencil/stencil.yaml", 31},
    {"zeromeanfilter/vertical.yaml", 31},
    {"zeromeanfilter/horizontal.yaml", 31}, {"matmul/matmul.yaml", 40},
};

/* Compiles src for sm_90 with f's options, as the tuner would. */
static void compiles(const at_family *f, const char *src, const char *what)
{
    at_compile_opts co = {.sm = 90, .limit_s = 120};
    at_compile_family_extra(f, co.extra, sizeof co.extra);
    void *cubin = NULL;
    size_t bytes = 0;
    at_err e = {0};
    if (at_compile(src, what, &co, &cubin, &bytes, &e))
        fail_msg("%s: %s", what, e.msg);
    free(cubin);
}

/* Kernel Tuner's examples: each space as the example's, and each first
 * point, reference and init kernel compiling with NVRTC (expdist.cu's
 * <cub/cub.cuh> included). */
static void kt_examples_compile(void **state)
{
    (void)state;
    at_err why = {0};
    if (at_nvrtc_load(&why)) {
        printf("# %s\n", why.msg);
        skip();
    }
    at_limits l;
    assert_true(at_limits_for_arch(90, &l));
    for (size_t i = 0; i < sizeof kt / sizeof *kt; ++i) {
        char path[512], kernel[128];
        snprintf(path, sizeof path, "%s/kernels/kt/%s", AT_EXAMPLES,
                 kt[i].file);
        const at_family *f;
        at_problem p;
        at_point *pts, pt;
        size_t n;
        at_err e = {0};
        if (at_spec_family_load(path, &f, &e) ||
            at_problem_begin(&p, f->name, "none", &e) ||
            at_problem_finish(&p, &e) ||
            at_space_points(f, &p, &l, &pts, &n, &e))
            fail_msg("%s: %s", path, e.msg);
        assert_int_equal(n, kt[i].points);
        char *src = at_expand(&p, &pts[0], AT_KERNEL_SYMBOL, NULL, &e);
        assert_non_null(src);
        compiles(f, src, path);
        free(src);
        src = f->ops.ref_source(&p, &l, &pt, kernel, sizeof kernel, &e);
        assert_non_null(src);
        compiles(f, src, "the reference");
        free(src);
        if (f->caps & AT_CAP_INIT_KERNEL) {
            src = f->ops.init_source(&p, &l, &pt, kernel, sizeof kernel, &e);
            assert_non_null(src);
            compiles(f, src, "the init kernel");
            free(src);
        }
        free(pts);
    }
}

/* Each example's emitted .cu builds with nvcc into the harness that
 * calls its NAME_argv (tests/gpu/kt_harness.cu). */
static void kt_emitted_build(void **state)
{
    (void)state;
    const char *cuda = getenv("CUDA");
    char nvcc[512];
    snprintf(nvcc, sizeof nvcc, "%s/bin/nvcc",
             cuda && *cuda ? cuda : "/usr/local/cuda");
    if (access(nvcc, X_OK) != 0) {
        printf("# no nvcc at %s\n", nvcc);
        skip();
    }
    at_limits l;
    assert_true(at_limits_for_arch(90, &l));
    for (size_t i = 0; i < sizeof kt / sizeof *kt; ++i) {
        char path[512], cu[300], cmd[2048], name[128];
        snprintf(path, sizeof path, "%s/kernels/kt/%s", AT_EXAMPLES,
                 kt[i].file);
        const at_family *f;
        at_problem p;
        at_point pt;
        at_err e = {0};
        if (at_spec_family_load(path, &f, &e) ||
            at_problem_begin(&p, f->name, "none", &e) ||
            at_problem_finish(&p, &e))
            fail_msg("%s: %s", path, e.msg);
        f->ops.default_point(&p, 90, &pt);
        at_problem_kind(&p, name + 9, sizeof name - 9);
        memcpy(name, "autotune_", 9);
        at_provenance pv = {.sm = 90, .why = "test_spec_inputs"};
        snprintf(cu, sizeof cu, "%s/%s.cu", dir, f->name);
        if (at_emit(cu, &p, &pt, name, &pv, &e))
            fail_msg("%s: %s", path, e.msg);
        snprintf(cmd, sizeof cmd, "cd %s && %s -arch=sm_90 -O1 "
                 "-DXC_LAUNCHER=%s_argv %s/../tests/gpu/kt_harness.cu %s "
                 "-o %s/h_%s 2>&1", dir, nvcc, name, AT_EXAMPLES, cu, dir,
                 f->name);
        if (system(cmd) != 0)
            fail_msg("%s: the emitted .cu does not build with the harness: "
                     "%s", path, cmd);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(new_keys_load),
        cmocka_unit_test(new_key_errors),
        cmocka_unit_test(links_stay_inside),
        cmocka_unit_test(inputs_made),
        cmocka_unit_test(manifest_says_it_all),
        cmocka_unit_test(options_in_emitted_file),
        cmocka_unit_test(kt_examples_compile),
        cmocka_unit_test(kt_emitted_build),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, setup, teardown);
}
