/* The preprocessor's digest (base/cpp.h) that lets a spec's twins share
 * one compile: sources the compiler would see as the same tokens get the
 * same digest and others a different one (checked against the system's
 * cpp on sources written to trip a preprocessor, and against NVRTC's
 * machine code on Kernel Tuner's convolution), and whatever it does not
 * model gives no digest, promptly, whatever the input. Needs NVRTC, not
 * a GPU; the comparison with cpp skips where there is none. */
/* struct run as libautotune-san.a (built with -DAT_TEST) lays it out */
#define AT_TEST 1
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cpp.h"
#include "base/readfile.h"
#include "gen/space.h"
#include "runtime/driver/driver.h"
#include "runtime/tune/tune_impl.h"
#include "spec/spec.h"

typedef struct dg {
    uint64_t d[2];
} dg;

static dg digest(const char *src)
{
    dg x;
    char why[160];
    if (!at_cpp_digest(src, x.d, why, sizeof why))
        fail_msg("no digest: %s\n%s", why, src);
    return x;
}

static int same(dg a, dg b)
{
    return a.d[0] == b.d[0] && a.d[1] == b.d[1];
}

/* Sources written to trip a preprocessor; each is preceded by
 * "#define P p\n#define Q q\n" for p, q in 0..3. */
static const char *const TRICKY[] = {
    /* a parameter unused, one used through a chain of macros */
    "#define W (P * 2)\n#define V W\nint a = V;\n",
    /* conditionals: nested, #elif chains, defined both ways, ternary */
    "#if P == 0\nint a;\n#elif P == 1 && defined(Q)\nint b;\n"
    "#elif defined Q ? Q > 1 : 0\nint c;\n#else\nint d;\n#endif\n",
    "#if (P << 2) + (Q >> 1) > 5 || !(Q % 2)\nint a = 1;\n#endif\n"
    "#if ~P & 1\nint b;\n#endif\n",
    /* function-like macros: nested calls, parens and commas in
     * arguments, a name not followed by (, self reference */
    "#define F(x, y) ((x) + (y))\n#define G(x) F(x, (P, Q))\n"
    "#define H G\nint a = H(F(P, 1));\nint H;\n#define S S + P\nint s = S;\n",
    /* mutual recursion stops; redefinition after #undef */
    "#define A B\n#define B A + Q\nint a = A;\n#undef B\n#define B P\n"
    "int b = A;\n",
    /* a macro that names a function-like one, called after it */
    "#define MAX(a, b) ((a) > (b) ? (a) : (b))\n#define M MAX\n"
    "int a = M(P, Q);\n",
    /* used only in #if, with a false branch that divides by zero */
    "#if Q == 0 || 8 / Q > 2\nint a;\n#endif\n#if 0\n#error never\n#endif\n",
    /* strings and characters are not expanded; comments are spaces */
    "const char *s = \"P Q\"; char c = 'P'; /* P */ int x = P/**/+1; // Q\n",
    /* an #ifdef of an undefined name, a continued line */
    "#ifdef NOT_DEFINED\nint z;\n#endif\n#define LONG P + \\\n  Q\nint l = LONG;\n",
    /* empty arguments and a macro of no parameters */
    "#define E(x) [x]\n#define Z() P\nint e[] = {E(), E(Q), Z()};\n",
};

/* cpp's output of src with white space taken out, or NULL without cpp. */
static char *system_cpp(const char *src)
{
    char path[] = "/tmp/at_cpp_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    fputs(src, f);
    fclose(f);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "cpp -P -undef -x c++ -std=c++17 %s 2>/dev/null",
             path);
    FILE *p = popen(cmd, "r");
    char *out = p ? calloc(1, 1 << 16) : NULL;
    size_t k = 0;
    for (int ch; out && (ch = fgetc(p)) != EOF && k + 1 < (1 << 16);)
        if (ch != ' ' && ch != '\n' && ch != '\t')
            out[k++] = (char)ch;
    int rc = p ? pclose(p) : -1;
    unlink(path);
    if (rc != 0) {
        free(out);
        return NULL;
    }
    return out;
}

static void partitions_match_the_system_cpp(void **state)
{
    (void)state;
    if (system("cpp --version >/dev/null 2>&1") != 0) {
        printf("# no cpp on this machine\n");
        skip();
    }
    for (size_t t = 0; t < sizeof TRICKY / sizeof *TRICKY; ++t) {
        dg d[16];
        char *text[16];
        for (int v = 0; v < 16; ++v) {
            char src[2048];
            snprintf(src, sizeof src, "#define P %d\n#define Q %d\n%s", v / 4,
                     v % 4, TRICKY[t]);
            d[v] = digest(src);
            if (!(text[v] = system_cpp(src)))
                fail_msg("cpp failed on source %zu:\n%s", t, src);
        }
        int twins = 0;
        for (int a = 0; a < 16; ++a)
            for (int b = a + 1; b < 16; ++b) {
                int cpp_same = !strcmp(text[a], text[b]);
                if (same(d[a], d[b]) != cpp_same)
                    fail_msg("source %zu, P=%d Q=%d against P=%d Q=%d: "
                             "digest %s, cpp %s", t, a / 4, a % 4, b / 4,
                             b % 4, same(d[a], d[b]) ? "same" : "differs",
                             cpp_same ? "same" : "differs");
                twins += cpp_same;
            }
        printf("# source %zu: %d of 120 pairs the same\n", t, twins);
        for (int v = 0; v < 16; ++v)
            free(text[v]);
    }
}

/* The twins of a spec's space count from the convolution's
 * tune, in a run as the tuner's walk makes it. */
static size_t copies(const at_problem *p, const at_point *pts, size_t n,
                     run *r)
{
    memset(r, 0, sizeof *r);
    r->p = p;
    r->pts = pts;
    at_err e = {0};
    if (at_twins_setup(r, n, &e))
        fail_msg("%s", e.msg);
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
        long first;
        int copy;
        at_twin_of(r, i, NULL, &first, &copy);
        /* every point an entry, unless twins are off */
        assert_true(r->twins.off ? first == 0 : first > 0);
        k += copy;
    }
    return k;
}

/* Kernel Tuner's convolution spec over its whole space: the tuner finds
 * the 450 twins its H100 tune found (docs/PERFORMANCE.md); a copy takes
 * its first point's outcome, a failed compile counted as one; with
 * AUTOTUNE_TWINS=0 there are none. */
static void the_tuner_finds_the_convolutions_twins(void **state)
{
    (void)state;
    const at_family *f;
    at_err e = {0};
    at_problem p;
    if (at_spec_family_load(AT_EXAMPLES "/kernels/kt/convolution/"
                            "convolution.yaml", &f, &e) ||
        at_problem_begin(&p, f->name, "none", &e) ||
        at_problem_finish(&p, &e))
        fail_msg("%s", e.msg);
    at_limits l = {90, 1024, 227 * 1024};
    at_point *pts = NULL;
    size_t n = 0;
    if (at_space_points(f, &p, &l, &pts, &n, &e))
        fail_msg("%s", e.msg);
    assert_int_equal(n, 1080);
    run r;
    at_tuned out;
    assert_int_equal(copies(&p, pts, n, &r), 450);
    assert_int_equal(r.twins.n, 630);
    /* Outcomes: entry 1 failed to compile, entry 2 was timed. */
    memset(&out, 0, sizeof out);
    r.out = &out;
    cand c = {0};
    c.t.median_ms = 0.5;
    c.verified = 1;
    at_twin_done(&r, 1, &c, "compile_failed", "ptxas: too much shared data");
    at_twin_done(&r, 2, &c, "ok", "");
    const char *status;
    assert_int_equal(at_twin_take(&r, 1, 5, &c, &status, &e), 0);
    assert_string_equal(status, "compile_failed");
    assert_string_equal(at_twin_why(&r, 1), "ptxas: too much shared data");
    assert_int_equal(at_twin_take(&r, 2, 6, &c, &status, &e), 0);
    assert_string_equal(status, "ok");
    assert_true(c.t.median_ms == 0.5 && c.verified && c.idx == 6);
    assert_true(out.compile_failed == 1 && out.same_code == 1 &&
                out.same_source == 1);
    /* An entry not evaluated yet cannot be taken: an error, not a guess. */
    assert_int_equal(at_twin_take(&r, 3, 7, &c, &status, &e),
                     AUTOTUNE_EINVALID);
    at_twins_free(&r);
    setenv("AUTOTUNE_TWINS", "0", 1);
    assert_int_equal(copies(&p, pts, n, &r), 0);
    at_twins_free(&r);
    /* Any other value is refused, naming the variable and the value. */
    setenv("AUTOTUNE_TWINS", "yes", 1);
    assert_int_equal(at_twins_setup(&r, n, &e), AUTOTUNE_EINVALID);
    assert_non_null(strstr(e.msg, "AUTOTUNE_TWINS"));
    assert_non_null(strstr(e.msg, "'yes'"));
    unsetenv("AUTOTUNE_TWINS");
    at_twins_free(&r);
    free(pts);
}

/* Kernel Tuner's convolution with a 3x3 filter: use_padding changes the
 * code only where padding is inserted. Twins by digest must be the same
 * machine code, and some must be found. */
static void convolution_twins_are_the_same_machine_code(void **state)
{
    (void)state;
    at_err e = {0};
    char *cu;
    size_t len;
    if (at_read_file("examples/kernels/kt/convolution/convolution.cu", &cu,
                     &len, &e))
        fail_msg("%s", e.msg);
    enum { N = 8 };
    dg d[N];
    uint64_t text[N];
    for (int v = 0; v < N; ++v) {
        int bx = (int[]){16, 32, 48, 64}[v / 2], pad = v % 2;
        size_t n = strlen(cu) + 512;
        char *src = malloc(n);
        snprintf(src, n, "#define filter_width 3\n#define filter_height 3\n"
                 "#define block_size_x %d\n#define block_size_y 4\n"
                 "#define tile_size_x 1\n#define tile_size_y 1\n"
                 "#define use_padding %d\n#define read_only 0\n"
                 "#line 1 \"convolution.cu\"\n%s", bx, pad, cu);
        d[v] = digest(src);
        void *cubin = NULL;
        size_t size = 0;
        at_compile_opts o = {.sm = 90};
        if (at_compile(src, "convolution_kernel", &o, &cubin, &size, &e))
            fail_msg("%s", e.msg);
        char sym[256];
        assert_int_equal(at_elf_kernel_symbol(cubin, size,
                                              "convolution_kernel", sym,
                                              sizeof sym), 1);
        text[v] = at_elf_kernel_hash(cubin, size, sym);
        assert_true(text[v] != 0);
        free(cubin);
        free(src);
    }
    int twins = 0;
    for (int a = 0; a < N; ++a)
        for (int b = a + 1; b < N; ++b) {
            if (same(d[a], d[b]) && text[a] != text[b])
                fail_msg("points %d and %d: same digest, other code", a, b);
            twins += same(d[a], d[b]);
        }
    /* block_size_x 32 and 64: no padding column, so use_padding is idle */
    assert_true(same(d[2], d[3]) && same(d[6], d[7]));
    assert_false(same(d[0], d[1])); /* 16: padding inserted */
    assert_int_equal(twins, 2);
    free(cu);
}

static void gives_up_where_it_cannot_know(void **state)
{
    (void)state;
    static const struct {
        const char *src, *why;
    } CASES[] = {
        {"#include <cuda_fp16.h>\nint a;\n", "#include"},
        {"#if __CUDA_ARCH__ >= 900\nint a;\n#endif\n", "compiler may define"},
        {"#ifdef __CUDACC_RTC__\nint a;\n#endif\n", "compiler may define"},
        {"#if defined(__cplusplus)\n#endif\n", "compiler may define"},
        {"#define CAT(a, b) a##b\n", "# or ##"},
        {"#define STR(a) #a\n", "# or ##"},
        {"#define V(...) __VA_ARGS__\n", "parameters"},
        {"int line = __LINE__;\n", "__LINE__"},
        {"const char *s = R\"(x)\";\n", "raw string"},
        {"int n = 1'000;\n", "digit separator"},
        {"int a; /* never closed\n", "unterminated comment"},
        {"const char *s = \"never closed\n", "unterminated literal"},
        {"#if 1\nint a;\n", "without its #endif"},
        {"#endif\n", "out of place"},
        {"#if 1\n#else\n#elif 1\n#endif\n", "out of place"},
        {"#if 1u\n#endif\n", "unsigned or floating"},
        {"#if 1.5\n#endif\n", "unsigned or floating"},
        {"#if 'a'\n#endif\n", "does not take"},
        {"#if 1 / 0\n#endif\n", "division by zero"},
        {"#if\n#endif\n", "no expression"},
        {"#if 1 2\n#endif\n", "after the expression"},
        {"#define F(a) a\nint x = F(1, 2);\n", "called with 2 arguments"},
        {"#define F(a) a\nint x = F(1\n#define G\n);\n", "not closed"},
        {"#embed \"x\"\n", "#embed"},
        {"#define F(a", "parameter list"},
        {"#define F(a,", "parameters"},
        {"#define F(", "parameters"},
        {"#define F(a)\nint x = F(", "not closed"},
        {"#if defined(", "malformed defined"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; ++i) {
        uint64_t d[2] = {1, 1};
        char why[160];
        if (at_cpp_digest(CASES[i].src, d, why, sizeof why))
            fail_msg("a digest of:\n%s", CASES[i].src);
        if (!strstr(why, CASES[i].why))
            fail_msg("'%s' does not say '%s' for:\n%s", why, CASES[i].why,
                     CASES[i].src);
        assert_true(d[0] == 0 && d[1] == 0);
    }
}

/* Hostile sources end promptly with or without a digest, never a
 * crash (ASan watches). */
static void hostile_sources_end_promptly(void **state)
{
    (void)state;
    char *s = malloc(1 << 20);
    size_t k = 0;
    /* 2^40 tokens if expanded: the bound stops it */
    k += (size_t)sprintf(s + k, "#define X0 1\n");
    for (int i = 1; i <= 40; ++i)
        k += (size_t)sprintf(s + k, "#define X%d X%d X%d\n", i, i - 1, i - 1);
    sprintf(s + k, "int a[] = {X40};\n");
    uint64_t d[2];
    char why[160];
    assert_int_equal(at_cpp_digest(s, d, why, sizeof why), 0);
    assert_non_null(strstr(why, "macro expansions"));
    /* 4^14 tokens from 14 calls, each argument used four times */
    k = (size_t)sprintf(s, "#define F(x) x x x x\nint a[] = {");
    for (int i = 0; i < 14; ++i)
        k += (size_t)sprintf(s + k, "F(");
    k += (size_t)sprintf(s + k, "1");
    for (int i = 0; i < 14; ++i)
        s[k++] = ')';
    sprintf(s + k, "};\n");
    assert_int_equal(at_cpp_digest(s, d, why, sizeof why), 0);
    assert_non_null(strstr(why, "tokens made"));
    /* 5000 parentheses in an #if, 100 nested #ifs */
    k = (size_t)sprintf(s, "#if ");
    for (int i = 0; i < 5000; ++i)
        s[k++] = '(';
    k += (size_t)sprintf(s + k, "1");
    for (int i = 0; i < 5000; ++i)
        s[k++] = ')';
    sprintf(s + k, "\n#endif\n");
    assert_int_equal(at_cpp_digest(s, d, why, sizeof why), 0);
    for (k = 0; k < 100 * 6; k += 6)
        memcpy(s + k, "#if 1\n", 6);
    s[k] = '\0';
    assert_int_equal(at_cpp_digest(s, d, why, sizeof why), 0);
    assert_non_null(strstr(why, "nested"));
    /* a megabyte of random bytes, then of random source characters */
    uint32_t x = 12345;
    for (int round = 0; round < 2; ++round) {
        for (k = 0; k + 1 < (1 << 20); ++k) {
            x = x * 1664525u + 1013904223u;
            static const char SET[] = "#()\"',/*\\\n \tPQ_a1";
            s[k] = round ? SET[(x >> 24) % (sizeof SET - 1)]
                         : (char)((x >> 24) | 1);
        }
        s[k] = '\0';
        (void)at_cpp_digest(s, d, why, sizeof why);
    }
    /* 20000 sources of preprocessor words in random order */
    static const char *const WORDS[] = {
        "#define ", "#undef ", "#if ", "#ifdef ", "#elif ", "#else",
        "#endif", "\n", "\n", "\n", "F", "G", "(", ")", ",", "x", "1",
        "defined", " ", "+", "?", ":", "/", "0", "F(", "G(x)", "#",
        "\"s\"", "'c'", "/*", "*/", "//", "\\\n", "<<", "&&",
    };
    for (int round = 0; round < 20000; ++round) {
        k = 0;
        int len = 1 + (int)((x >> 16) % 40);
        for (int i = 0; i < len; ++i) {
            x = x * 1664525u + 1013904223u;
            const char *w = WORDS[(x >> 16) % (sizeof WORDS / sizeof *WORDS)];
            k += (size_t)sprintf(s + k, "%s", w);
        }
        (void)at_cpp_digest(s, d, why, sizeof why);
    }
    /* empty and lone-# sources digest */
    assert_int_equal(at_cpp_digest("", d, why, sizeof why), 1);
    assert_int_equal(at_cpp_digest("#\n", d, why, sizeof why), 1);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(partitions_match_the_system_cpp),
        cmocka_unit_test(convolution_twins_are_the_same_machine_code),
        cmocka_unit_test(the_tuner_finds_the_convolutions_twins),
        cmocka_unit_test(gives_up_where_it_cannot_know),
        cmocka_unit_test(hostile_sources_end_promptly),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
