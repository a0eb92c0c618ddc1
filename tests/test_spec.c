/* Spec files (spec/spec.h, issue 15) without a GPU: the examples load and
 * their spaces enumerate with the restrictions applied; every malformed,
 * incomplete or inconsistent spec gives an error naming the file, the
 * key and the line, and loads nothing. */
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spec/spec.h"
#include "base/readfile.h"
#include "gen/expand.h"
#include "spec/spec_space.h"
#include "runtime/driver/driver.h"

static char dir[] = "/tmp/at_spec_XXXXXX";

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    char path[64];
    snprintf(path, sizeof path, "%s/k.cu", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs("extern \"C\" __global__ void k(float *o, int n) {}\n", f);
    return fclose(f);
}

static int teardown(void **state)
{
    (void)state;
    char path[64];
    snprintf(path, sizeof path, "%s/k.cu", dir);
    unlink(path);
    return rmdir(dir);
}

static const int64_t size[3] = {16777216, 1, 1};

static void vector_add_example(void **state)
{
    (void)state;
    at_spec s;
    at_err e = {0};
    at_limits l;
    assert_true(at_limits_for_arch(90, &l));
    if (at_spec_load_file(AT_EXAMPLES "/kernels/vector_add/vector_add.yaml",
                          &s, &e))
        fail_msg("%s", e.msg);
    assert_string_equal(s.kernel, "vector_add");
    assert_non_null(strstr(s.source, "__global__ void vector_add("));
    assert_int_equal(s.dims, 1);
    assert_int_equal(s.size[0], 16777216);
    assert_int_equal(s.n_params, 2);
    assert_string_equal(s.params[1].name, "tile_size_x");
    assert_int_equal(s.n_args, 4);
    assert_int_equal(s.args[0].dir, AT_DIR_OUT);
    assert_int_equal(s.args[3].kind, AT_ARG_SCALAR);
    assert_true(s.verify && s.reference_kernel);
    /* Geometry at block_size_x 256, tile_size_x 4. */
    int64_t slots[64], v;
    const int pt[2] = {256, 4};
    at_spec_slots(&s, pt, s.size, &l, slots);
    assert_int_equal(at_expr_eval(s.block[0], slots, &v, &e), 0);
    assert_int_equal(v, 256);
    assert_int_equal(at_expr_eval(s.grid[0], slots, &v, &e), 0);
    assert_int_equal(v, 16777216 / 1024);
    assert_int_equal(at_expr_eval(s.grid[1], slots, &v, &e), 0);
    assert_int_equal(v, 1);
    assert_int_equal(at_expr_eval(s.bytes, slots, &v, &e), 0);
    assert_int_equal(v, 3 * 16777216LL * 4);
    assert_int_equal(at_expr_eval(s.ref_grid[0], slots, &v, &e), 0);
    assert_int_equal(v, 16777216 / 256);
    /* 5 x 4 points; 1024 x 8 breaks block_size_x * tile_size_x <= 4096. */
    at_spec_space sp;
    assert_int_equal(at_spec_space_make(&s, s.size, &l, &sp, &e), 0);
    assert_int_equal(sp.total, 20);
    assert_int_equal(sp.n, 19);
    assert_int_equal(sp.removed[0], 1);
    char text[128];
    at_spec_point_text(&s, sp.points + 2 * 18, text, sizeof text);
    assert_string_equal(text, "block_size_x=1024 tile_size_x=4");
    at_spec_space_free(&sp);
    at_spec_free(&s);
}

/* Every example loads and enumerates; NVRTC compiles every point of the
 * smallest (vector_add) for sm_90 and the first and last of the others
 * (their reference kernels ride along in each program). */
static void examples_compile(void **state)
{
    (void)state;
    static const char *const names[] = {"vector_add", "convolution",
                                        "matmul", "stencil", "avg_matvec"};
    at_limits l;
    at_err why = {0};
    if (at_nvrtc_load(&why)) {
        printf("# %s\n", why.msg);
        skip();
    }
    assert_true(at_limits_for_arch(90, &l));
    const at_compile_opts co = {90, 60};
    size_t compiled = 0;
    for (size_t x = 0; x < sizeof names / sizeof *names; ++x) {
        char path[256];
        at_spec s;
        at_spec_space sp;
        at_err e = {0};
        snprintf(path, sizeof path, "%s/kernels/%s/%s.yaml", AT_EXAMPLES,
                 names[x], names[x]);
        if (at_spec_load_file(path, &s, &e) ||
            at_spec_space_make(&s, s.size, &l, &sp, &e))
            fail_msg("%s", e.msg);
        assert_string_equal(s.kernel, names[x]);
        assert_true(sp.n > 0 && sp.n <= sp.total);
        for (size_t i = 0; i < sp.n; ++i) {
            if (x && i && i + 1 < sp.n)
                continue;
            const int *pt = sp.points + i * (size_t)s.n_params;
            char *src = at_spec_variant_source(&s, pt, s.size, &e), name[256];
            void *cubin = NULL;
            size_t bytes;
            assert_non_null(src);
            at_spec_point_text(&s, pt, name, sizeof name);
            if (at_compile(src, name, &co, &cubin, &bytes, &e))
                fail_msg("%s at %s: %s", path, name, e.msg);
            assert_true(bytes > 0);
            ++compiled;
            free(cubin);
            free(src);
        }
        at_spec_space_free(&sp);
        at_spec_free(&s);
    }
    printf("# %zu variants of 5 examples compiled for sm_90\n", compiled);
}

/* A spec around the given sections (each "" for the default). */
static char *spec(const char *params, const char *extra, const char *args,
                  const char *verify)
{
    static char buf[4096];
    snprintf(buf, sizeof buf,
             "autotune_spec: 1\n"
             "kernel: {name: k, source: k.cu}\n"
             "problem: {size: [1000, 8]}\n"
             "tune_params:\n%s"
             "%s"
             "arguments:\n%s"
             "verify: %s\n",
             *params ? params : "  block_size_x: [32, 64]\n  tile: [1, 2]\n",
             extra,
             *args ? args : "  - {name: o, type: f32, count: size_x * size_y,"
                            " dir: out}\n  - {name: n, type: i32, value: "
                            "size_x}\n",
             *verify ? verify : "{reference_kernel: k}");
    return buf;
}

/* The text fails to load with a message holding want (and the file). */
/* kernel.options: a -D is a #define of the variant's source, the rest
 * reach NVRTC through the family (options.cu builds only with both), and
 * a bad option is refused when the family is made. */
static void options_reach_nvrtc(void **state)
{
    (void)state;
    at_spec s;
    const at_family *f;
    at_err e = {0};
    if (at_spec_load_file(AT_DATA "/specs/options.yaml", &s, &e) ||
        at_spec_family_make(&s, &f, &e))
        fail_msg("%s", e.msg);
    assert_string_equal(f->nvrtc_options, "--use_fast_math");
    at_problem p = {.family = f, .type = at_type_none()};
    p.v[0] = 1000;
    at_point pt = {{128}};
    char *src = at_expand(&p, &pt, "at_kernel", NULL, &e);
    assert_non_null(src);
    assert_non_null(strstr(src, "#define AT_OPTION_GIVEN 2\n"));
    at_compile_opts co = {.sm = 90, .limit_s = 60};
    void *cubin = NULL;
    size_t bytes = 0;
    assert_int_equal(at_compile(src, "no options", &co, &cubin, &bytes, &e),
                     AUTOTUNE_ECOMPILE);
    assert_non_null(strstr(e.msg, "did not reach NVRTC"));
    snprintf(co.extra, sizeof co.extra, "%s", f->nvrtc_options);
    if (at_compile(src, "with options", &co, &cubin, &bytes, &e))
        fail_msg("%s", e.msg);
    free(cubin);
    free(src);
    at_spec_family_free(f);
    const char *text = "autotune_spec: 1\n"
        "kernel: {name: k, source: options.cu, options: ['-DA -DB']}\n"
        "problem: {size: [10]}\ntune_params: {block_size_x: [32]}\n"
        "arguments:\n  - {name: y, type: f32, count: size_x, dir: out}\n"
        "verify: none\n";
    e = (at_err){0};
    if (at_spec_load_text(text, "t.yaml", AT_DATA "/specs", &s, &e))
        fail_msg("%s", e.msg);
    assert_int_equal(at_spec_family_make(&s, &f, &e), AUTOTUNE_EINVALID);
    assert_non_null(strstr(e.msg, "one option a list item"));
}

/* The same spec loaded twice is one family; another spec of the same
 * kernel name is refused, not confused with it. */
static void loading_again(void **state)
{
    (void)state;
    const char *path = AT_EXAMPLES "/kernels/vector_add/vector_add.yaml";
    const at_family *a, *b;
    at_err e = {0};
    if (at_spec_family_load(path, &a, &e) ||
        at_spec_family_load(path, &b, &e))
        fail_msg("%s", e.msg);
    assert_ptr_equal(a, b);
    assert_ptr_equal(at_family_find("vector_add"), a);
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(at_read_file(path, &text, &len, &e), 0);
    char *r = strstr(text, "<= 4096");
    assert_non_null(r);
    memcpy(r, "<= 2048", 7);
    at_spec s;
    const at_family *c;
    if (at_spec_load_text(text, "v2.yaml", AT_EXAMPLES "/kernels/vector_add",
                          &s, &e) ||
        at_spec_family_make(&s, &c, &e))
        fail_msg("%s", e.msg);
    assert_true(at_family_hash(c) != at_family_hash(a));
    assert_int_equal(at_family_register(c, &e), AUTOTUNE_EINVALID);
    assert_non_null(strstr(e.msg, "'vector_add' exists already"));
    at_spec_family_free(c);
    free(text);
}

/* A kernel and reference of C++ linkage (cxx.cu) are found in the
 * cubin by their lowered names. */
static void cxx_kernels_found(void **state)
{
    (void)state;
    const at_family *f;
    at_err e = {0};
    if (at_spec_family_load(AT_DATA "/specs/cxx.yaml", &f, &e))
        fail_msg("%s", e.msg);
    at_problem p;
    if (at_problem_begin(&p, "saxpy", "none", &e) ||
        at_problem_finish(&p, &e))
        fail_msg("%s", e.msg);
    at_point pt = {{128, 264}};
    char *src = at_expand(&p, &pt, "at_kernel", NULL, &e);
    assert_non_null(src);
    at_compile_opts co = {.sm = 90, .limit_s = 60};
    void *cubin = NULL;
    size_t bytes = 0;
    if (at_compile(src, "cxx", &co, &cubin, &bytes, &e))
        fail_msg("%s", e.msg);
    char sym[256];
    assert_int_equal(at_elf_kernel_symbol(cubin, bytes, "at_kernel", sym,
                                          sizeof sym), 1);
    assert_string_equal(sym, "_Z9at_kernelPfPKffi");
    assert_int_equal(at_elf_kernel_symbol(cubin, bytes, "saxpy_ref", sym,
                                          sizeof sym), 1);
    assert_string_equal(sym, "_Z9saxpy_refPfPKffi");
    assert_int_equal(at_elf_kernel_symbol(cubin, bytes, "saxpy", sym,
                                          sizeof sym), 0);
    assert_int_equal(at_elf_kernel_symbol(cubin, bytes, "at_kerne", sym,
                                          sizeof sym), 0);
    free(cubin);
    free(src);
}

/* vector_add.yaml described in C: the same family (same hash, so the
 * same cache entries); a hostile string stays a string. */
static const int bsx[] = {64, 128, 256, 512, 1024}, tsx[] = {1, 2, 4, 8};
static const autotune_param vparams[] = {{"block_size_x", bsx, 5},
                                         {"tile_size_x", tsx, 4}};
static const char *const vrestr[] = {"block_size_x * tile_size_x <= 4096"};
static const autotune_arg vargs[] = {
    {"c", "f32", "size_x", NULL, "out", NULL, 0, 0, 0, 0},
    {"a", "f32", "size_x", NULL, NULL, NULL, 0, 0, 0, 0},
    {"b", "f32", "size_x", NULL, NULL, NULL, 0, 0, 0, 0},
    {"n", "i32", NULL, "size_x", NULL, NULL, 0, 0, 0, 0},
};

static void described_in_c(void **state)
{
    (void)state;
    const at_family *file, *mem;
    at_err e = {0};
    if (at_spec_family_load(AT_EXAMPLES
                            "/kernels/vector_add/vector_add.yaml", &file,
                            &e))
        fail_msg("%s", e.msg);
    autotune_family_desc d = {
        .kernel = "vector_add", .source = file->template_src, .dims = 1,
        .size = {16777216}, .params = vparams, .n_params = 2,
        .restrictions = vrestr, .n_restrictions = 1,
        .grid_div = {"block_size_x, tile_size_x"}, .args = vargs,
        .n_args = 4, .reference_kernel = "vector_add_ref",
        .bytes = "3 * size_x * 4", .flops = "size_x"};
    char *text = at_spec_text_of(&d, &e);
    assert_non_null(text);
    if (at_spec_family_load_mem(text, "(desc)", NULL, d.source, &mem,
                                &e))
        fail_msg("%s\n%s", e.msg, text);
    assert_ptr_equal(mem, file); /* the family registered first */
    free(text);
    /* A quote and a newline in a name: the loader refuses the name. */
    d.kernel = "x\", \"bad\": 1, \"y\nz";
    text = at_spec_text_of(&d, &e);
    assert_non_null(text);
    assert_int_equal(at_spec_family_load_mem(text, "(desc)", NULL, d.source,
                                             &mem, &e), AUTOTUNE_EINVALID);
    assert_non_null(strstr(e.msg, "kernel.name"));
    free(text);
}

/* The packed buffers of a spec (spec/spec_layout.c), on the CPU: offsets
 * on 256 bytes with a poisoned gap after each output, the arguments'
 * pointers, the inout copy, first contents, and the error units of a
 * tolerance output beside an exact one. */
static void packed_layout(void **state)
{
    (void)state;
    static const char spec[] =
        "autotune_spec: 1\n"
        "kernel: {name: two, source: two.cu}\n"
        "problem: {size: [1000]}\n"
        "tune_params: {block_size_x: [128]}\n"
        "arguments:\n"
        "  - {name: y, type: f32, count: size_x, dir: inout, init: iota,"
        " atol: 0.5, rtol: 0.25}\n"
        "  - {name: z, type: i32, count: 10, dir: out}\n"
        "  - {name: x, type: f32, count: size_x, init: random}\n"
        "  - {name: k, type: f32, count: 4, constant: true, init: ones}\n"
        "  - {name: n, type: i32, value: size_x}\n"
        "verify: {reference_kernel: two_ref}\n";
    const at_family *f;
    at_err e = {0};
    if (at_spec_family_load_mem(spec, "two.yaml", NULL,
                                "void two() {}\nvoid two_ref() {}\n", &f,
                                &e))
        fail_msg("%s", e.msg);
    at_problem p;
    if (at_problem_begin(&p, "two", "none", &e))
        fail_msg("%s", e.msg);
    assert_int_equal(at_problem_finish(&p, &e), 0);
    /* Inputs: y's first contents, x, k; outputs: y, gap, z, gap. */
    assert_int_equal(p.in_bytes, 4096 + 4096 + 256);
    assert_int_equal(p.out_bytes, 4096 + 256 + 256 + 256);
    at_args a;
    at_point pt = {{128}};
    f->ops.args(&p, &pt, 0x100000, 0x200000, 0, 0, &a);
    assert_int_equal(a.n, 4); /* y, z, x, n: the constant is no argument */
    uint64_t ptr[3];
    for (int i = 0; i < 3; ++i)
        memcpy(&ptr[i], a.ptr[i], 8);
    assert_true(ptr[0] == 0x200000 && ptr[1] == 0x200000 + 4096 + 256 &&
                ptr[2] == 0x100000 + 4096);
    assert_int_equal(*(int32_t *)a.ptr[3], 1000);
    assert_int_equal(a.bytes[3], 4);
    at_copy c[AT_MAX_COPIES];
    assert_int_equal(f->ops.copies(&p, c, AT_MAX_COPIES), 2);
    assert_true(!c[0].symbol && c[0].src == 0 && c[0].dst == 0 &&
                c[0].bytes == 4000 && c[0].arg == 0);
    assert_true(c[1].symbol && !strcmp(c[1].symbol, "k") &&
                c[1].src == 8192 && c[1].bytes == 16 && c[1].arg == 3);
    static uint32_t w[(4096 + 4096 + 256) / 4];
    for (size_t i = 0; i < sizeof w / 4; ++i)
        w[i] = (uint32_t)(i * 2654435761u);
    f->ops.input(&p, 1, 0, w, 0, sizeof w / 4);
    float *y = (float *)w, *x = (float *)(w + 1024), *k = (float *)(w + 2048);
    for (int i = 0; i < 1000; ++i) {
        assert_true(y[i] == (float)i);
        assert_true(x[i] >= -1 && x[i] < 1 && x[i] * 128 == (int)(x[i] * 128));
    }
    for (int i = 0; i < 4; ++i)
        assert_true(k[i] == 1);
    /* Error units: y within 0.5 + 0.25|ref|, z bit for bit (-1), the gaps
     * exact (left 0). */
    static float ref[(4096 + 768) / 4], bound[(4096 + 768) / 4];
    ref[7] = -8;
    f->ops.ref_bounds(&p, ref, bound);
    assert_true(bound[7] == 0.5f + 0.25f * 8 && bound[0] == 0.5f);
    assert_true(bound[1024] == 0 && bound[1024 + 64] == -1 &&
                bound[1024 + 64 + 9] == -1 && bound[1024 + 64 + 10] == 0);
    char where[96];
    /* An element of type none is a byte. */
    f->ops.where(&p, 4 * (1024 + 64 + 3), where, sizeof where);
    assert_string_equal(where, "z[3]");
    f->ops.where(&p, 4 * (1024 + 2), where, sizeof where);
    assert_non_null(strstr(where, "between buffers"));
}

static void bad(const char *text, const char *want)
{
    at_spec s;
    at_err e = {0};
    int rc = at_spec_load_text(text, "t.yaml", dir, &s, &e);
    if (rc != AUTOTUNE_EINVALID || !strstr(e.msg, want) ||
        strncmp(e.msg, "t.yaml", 6))
        fail_msg("wanted '%s', got %d '%s' for:\n%s", want, rc, e.msg, text);
    /* Nothing kept: the spec is zeroed. */
    assert_null(s.kernel);
    assert_int_equal(s.n_params, 0);
}

static void bad_specs_name_the_place(void **state)
{
    (void)state;
    bad("kernel: [unclosed\n", "malformed YAML");
    bad("", "empty document");
    bad("- 1\n- 2\n", "expected a mapping at the top");
    bad("kernel: {name: k, source: k.cu}\n", "autotune_spec: missing");
    bad("autotune_spec: 2\n", "expected an integer from 1 to 1, got '2'");
    bad("autotune_spec: 1\nkernel: {name: k}\n", "kernel.source: expected "
        "a scalar");
    bad("autotune_spec: 1\nkernel: {name: k, source: nope.cu}\n",
        "cannot open");
    bad("autotune_spec: 1\nkernel: {name: 'k-1', source: k.cu}\n",
        "not a C identifier");
    /* Sections replaced (params, extra sections, arguments, verify;
     * "" keeps the default) and what the message must say. */
    static const struct {
        const char *params, *extra, *args, *verify, *want;
    } cases[] = {
        {"",
         "tune_parms: {}\n",
         "",
         "",
         ":7: spec: unknown key 'tune_parms'"},
        {"  block_size_x: 32\n",
         "",
         "",
         "",
         "block_size_x: expected a list of 1 to 32 integers"},
        {"  block_size_x: [32, x]\n",
         "",
         "",
         "",
         ":5: block_size_x: expected an integer"},
        {"  block_size_x: [32, 32]\n",
         "",
         "",
         "",
         "32 twice"},
        {"  threadIdx: [1]\n",
         "",
         "",
         "",
         "'threadIdx' is a C/C++ keyword or a name a program or CUDA"},
        {"  size_x: [1]\n",
         "",
         "",
         "",
         "'size_x' is already a name"},
        {"",
         "restrictions: [block_size_x * tile_y <= 64]\n",
         "",
         "",
         ":7: restrictions: unknown name 'tile_y' at column 16"},
        {"",
         "restrictions: ['block_size_x <']\n",
         "",
         "",
         "expected an operand, found the end"},
        {"",
         "launch: {grid: [1], grid_div_x: [tile]}\n",
         "",
         "",
         "give grid or grid_div_*, not both"},
        {"",
         "launch: {block: [foo]}\n",
         "",
         "",
         "launch.block: unknown name 'foo'"},
        {"",
         "",
         "  - {name: 'o[0]', type: f32, count: 4, dir: out}\n",
         "",
         "'o[0]' is not a C identifier"},
        {"",
         "",
         "  - {name: o, type: f33, count: 4, dir: out}\n",
         "",
         "o: unknown type"},
        {"",
         "",
         "  - {name: o, type: f32, count: 4, value: 1, dir: out}\n",
         "",
         "give count (a buffer or constant) or value"},
        {"",
         "",
         "  - {name: o, type: f32, count: 4}\n",
         "",
         "no output (dir: out or inout)"},
        {"",
         "",
         "  - {name: o, type: f32, count: 4, dir: sideways}\n",
         "",
         "dir: expected one of in, out, inout"},
        {"",
         "",
         "  - {name: o, type: f32, count: 4, dir: out, exact: true, atol: 1}\n",
         "",
         "exact: true with a tolerance"},
        {"",
         "",
         "  - {name: o, type: f32, count: 4, dir: out}\n"
         "  - {name: o, type: f32, count: 4}\n",
         "",
         "a second argument"},
        {"",
         "",
         "",
         "{}",
         "give reference_kernel or reference_point"},
        {"",
         "",
         "",
         "{reference_point: {block_size_x: 32}}",
         "no value for tile"},
        {"",
         "",
         "",
         "{reference_point: {block_size_x: 48, tile: 1}}",
         "48 is not one of the parameter's values"},
        {"",
         "",
         "",
         "{reference_kernel: k, grid: [size_x / tile]}",
         "the reference's launch cannot use the parameter tile"},
        {"",
         "metrics: {bytes: 4 * sizes_x}\n",
         "",
         "",
         "metrics.bytes: unknown name 'sizes_x'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i)
        bad(spec(cases[i].params, cases[i].extra, cases[i].args,
                 cases[i].verify), cases[i].want);
    /* A missing verify section is an error; none must be said. */
    at_spec s;
    at_err e = {0};
    char *t = spec("", "", "", "none");
    assert_int_equal(at_spec_load_text(t, "t.yaml", dir, &s, &e), 0);
    assert_int_equal(s.verify, 0);
    at_spec_free(&s);
    t = spec("", "", "", "");
    *strstr(t, "verify:") = '\0';
    bad(t, "verify: missing");
}

static void spaces_that_cannot_be_made(void **state)
{
    (void)state;
    at_spec s;
    at_err e = {0};
    at_limits l;
    at_spec_space sp;
    assert_true(at_limits_for_arch(90, &l));
    /* Empty: the restriction that removed the most is named. */
    const char *t = spec("", "restrictions: [tile < 8, block_size_x > 999]\n",
                         "", "");
    assert_int_equal(at_spec_load_text(t, "t.yaml", dir, &s, &e), 0);
    assert_int_equal(at_spec_space_make(&s, size, &l, &sp, &e),
                     AUTOTUNE_ENO_VARIANT);
    assert_non_null(strstr(e.msg, "no point of the 4 passes the "
                                  "restrictions; restriction 2, "
                                  "'block_size_x > 999', removed the most "
                                  "(4)"));
    at_spec_free(&s);
    /* A zero divisor at one point: the restriction and point named. */
    t = spec("", "restrictions: [size_x / (tile - 1) > 0]\n", "", "");
    assert_int_equal(at_spec_load_text(t, "t.yaml", dir, &s, &e), 0);
    assert_int_equal(at_spec_space_make(&s, size, &l, &sp, &e),
                     AUTOTUNE_EINVALID); /* the spec's mistake */
    assert_non_null(strstr(e.msg, "t.yaml: restriction 1 at block_size_x=32 "
                                  "tile=1: division by zero"));
    at_spec_free(&s);
    /* Device limits are names too. */
    t = spec("", "restrictions: [block_size_x * tile <= max_threads / 16]\n",
             "", "");
    assert_int_equal(at_spec_load_text(t, "t.yaml", dir, &s, &e), 0);
    assert_int_equal(at_spec_space_make(&s, size, &l, &sp, &e), 0);
    assert_int_equal(sp.n, 3); /* 64 x 2 > 1024 / 16 */
    at_spec_space_free(&sp);
    at_spec_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vector_add_example),
        cmocka_unit_test(examples_compile),
        cmocka_unit_test(bad_specs_name_the_place),
        cmocka_unit_test(spaces_that_cannot_be_made),
        cmocka_unit_test(options_reach_nvrtc),
        cmocka_unit_test(loading_again),
        cmocka_unit_test(cxx_kernels_found),
        cmocka_unit_test(described_in_c),
        cmocka_unit_test(packed_layout),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, setup, teardown);
}
