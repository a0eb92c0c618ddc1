/* -h, --help and `autotune help` (issue 35): every command answers
 * them, alike; every flag a help lists is in the man page and in the
 * README or docs, and every flag of the man page is in a help; and a
 * command takes exactly the generic flags its help lists (each tried on
 * the command line: refused "is for ..." if and only if unlisted). */
#include "cli_run.h"

#include <stdlib.h>
#include <string.h>

#define MAX_FLAGS 128

typedef struct {
    char *name[MAX_FLAGS];
    int n;
} flag_set;

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/at-help-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return at_rm_tree(dir);
}

/* Runs the release binary with args (NULL-ended), no driver; status. */
static int run(const char *const *args, char **out, char **err)
{
    const char *bin = getenv("AUTOTUNE_REL");
    if (!bin)
        fail_msg("AUTOTUNE_REL is not set (run through make check)");
    char *argv[24];
    int n = 0;
    argv[n++] = (char *)bin;
    for (; args[n - 1] && n < 23; ++n)
        argv[n] = (char *)args[n - 1];
    argv[n] = NULL;
    char cache[128];
    snprintf(cache, sizeof cache, "AUTOTUNE_CACHE=%s/c.db", dir);
    char *env[] = {cache, "AUTOTUNE_LIBCUDA=/nonexistent/libcuda.so.1",
                   "PATH=/usr/bin:/bin", NULL};
    int status;
    at_run_captured(bin, argv, env, dir, &status, out, err);
    return status;
}

static int has(const flag_set *s, const char *f)
{
    for (int i = 0; i < s->n; ++i)
        if (strcmp(s->name[i], f) == 0)
            return 1;
    return 0;
}

static void add(flag_set *s, const char *f, size_t len)
{
    char *x = strndup(f, len);
    if (has(s, x) || s->n == MAX_FLAGS)
        free(x);
    else
        s->name[s->n++] = x;
}

static void clear(flag_set *s)
{
    for (int i = 0; i < s->n; ++i)
        free(s->name[i]);
    s->n = 0;
}

/* The flags a help lists: "  --flag" or "  -o" at a line's start (and
 * "-h, --help"); generic_only: not the problem flags (from a line
 * "... problem flags:" on). */
static void help_flags(const char *text, flag_set *s, int generic_only)
{
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n')
                                                              + 1 : NULL) {
        const char *eol = strchr(l, '\n');
        if (generic_only && eol && eol - l >= 14 &&
            strncmp(eol - 14, "problem flags:", 14) == 0)
            break;
        if (strncmp(l, "  -", 3) != 0)
            continue;
        const char *f = l + 2;
        while (*f == '-') {
            size_t n = strspn(f, "-abcdefghijklmnopqrstuvwxyz0123456789");
            add(s, f, n);
            f += n;
            if (strncmp(f, ", ", 2) != 0)
                break;
            f += 2;
        }
    }
}

/* The help of a command line, checked to be the same through `help`,
 * --help and -h. */
static char *help_of(const char *const *words)
{
    const char *a[12], *b[12], *c[12];
    int n = 0;
    a[0] = "help";
    for (; words[n]; ++n)
        a[n + 1] = b[n] = c[n] = words[n];
    a[n + 1] = NULL;
    b[n] = "--help";
    c[n] = "-h";
    b[n + 1] = c[n + 1] = NULL;
    char *o1, *e1, *o2, *e2, *o3, *e3;
    int s1 = run(a, &o1, &e1), s2 = run(b, &o2, &e2), s3 = run(c, &o3, &e3);
    if (s1 || s2 || s3 || e1[0] || e2[0] || e3[0])
        fail_msg("help of %s: status %d %d %d, stderr '%s%s%s'", words[0]
                 ? words[0] : "(none)", s1, s2, s3, e1, e2, e3);
    if (strcmp(o1, o2) || strcmp(o1, o3))
        fail_msg("help %s: `help`, --help and -h differ", words[0]);
    assert_non_null(strstr(o1, "usage: autotune"));
    free(e1), free(e2), free(e3), free(o2), free(o3);
    return o1;
}

static const char *const *const lines[] = {
    (const char *[]){NULL},
    (const char *[]){"transpose", NULL},
    (const char *[]){"reduce", NULL},
    (const char *[]){"kernel", NULL},
    (const char *[]){"space", NULL},
    (const char *[]){"space", "reduce", NULL},
    (const char *[]){"replay", NULL},
    (const char *[]){"bench", NULL},
    (const char *[]){"bench", "tune", NULL},
    (const char *[]){"tune-list", NULL},
    (const char *[]){"cache", NULL},
    (const char *[]){"plot", NULL}, /* the Python package's argparse */
};

/* Every command, every family and a spec answer help alike. */
static void every_command_helps(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof lines / sizeof *lines; ++i)
        free(help_of(lines[i]));
    /* A spec's own sizes and scalars are its flags. */
    char *h = help_of((const char *[]){"kernel", AT_EXAMPLES
                                       "/kernels/kt/expdist/expdist.yaml",
                                       NULL});
    assert_non_null(strstr(h, "--size-x N"));
    assert_non_null(strstr(h, "--alloc-size N"));
    free(h);
    char *out, *err;
    assert_int_equal(run((const char *[]){"help", "frob", NULL}, &out, &err),
                     2);
    assert_non_null(strstr(err, "no command or family 'frob'"));
    free(out), free(err);
}

static char *slurp_path(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    char *s = at_slurp(f);
    fclose(f);
    return s;
}

/* "--ld-in" as the man page writes it: "\-\-ld\-in". */
static int in_man(const char *man, const char *flag)
{
    char esc[128];
    size_t k = 0;
    for (const char *c = flag; *c && k + 3 < sizeof esc; ++c) {
        if (*c == '-')
            esc[k++] = '\\';
        esc[k++] = *c;
    }
    esc[k] = '\0';
    for (const char *p = strstr(man, esc); p; p = strstr(p + 1, esc)) {
        char next = p[k];
        if (!(next == '-' || (next >= 'a' && next <= 'z') ||
              (next >= '0' && next <= '9') || next == '\\'))
            return 1;
        if (next == '\\' && p[k + 1] != '-')
            return 1; /* a font change after the flag */
    }
    return 0;
}

/* The flag as a word in plain text (README, docs). */
static int in_text(const char *text, const char *flag)
{
    size_t n = strlen(flag);
    for (const char *p = strstr(text, flag); p; p = strstr(p + 1, flag)) {
        char next = p[n], prev = p == text ? ' ' : p[-1];
        int word_end = !(next == '-' || (next >= 'a' && next <= 'z') ||
                         (next >= '0' && next <= '9'));
        if (word_end && prev != '-' && !(prev >= 'a' && prev <= 'z'))
            return 1;
    }
    return 0;
}

/* Every flag of every help in the man page and in the README or a
 * document; every flag of the man page in a help. */
static void help_matches_the_docs(void **state)
{
    (void)state;
    flag_set all = {{0}, 0};
    for (size_t i = 0; i < sizeof lines / sizeof *lines; ++i) {
        char *h = help_of(lines[i]);
        help_flags(h, &all, 0);
        free(h);
    }
    char *man = slurp_path(AT_DATA "/../../docs/autotune.1");
    char *readme = slurp_path(AT_DATA "/../../README.md");
    static const char *const docs[] = {"SPEC.md", "WISDOM.md", "PYTHON.md",
                                       "RELIABILITY.md", "PERFORMANCE.md",
                                       "ARCHITECTURE.md", "json.md"};
    char *doc[7];
    for (int i = 0; i < 7; ++i) {
        char path[256];
        snprintf(path, sizeof path, AT_DATA "/../../docs/%s", docs[i]);
        doc[i] = slurp_path(path);
    }
    char missing[2048] = "";
    for (int i = 0; i < all.n; ++i) {
        const char *f = all.name[i];
        int text = in_text(readme, f);
        for (int d = 0; d < 7 && !text; ++d)
            text = in_text(doc[d], f);
        if (!in_man(man, f) || !text)
            snprintf(missing + strlen(missing), sizeof missing -
                     strlen(missing), " %s (%s)", f, !in_man(man, f)
                     ? "man page" : "README and docs");
    }
    /* The other way: the man page's flags ("\-\-word\-word"). */
    for (const char *p = strstr(man, "\\-\\-"); p;
         p = strstr(p + 1, "\\-\\-")) {
        char flag[64] = "--";
        size_t k = 2;
        const char *c = p + 4;
        while (k + 1 < sizeof flag) {
            if (*c >= 'a' && *c <= 'z')
                flag[k++] = *c++;
            else if ((*c >= '0' && *c <= '9') && k > 2)
                flag[k++] = *c++;
            else if (c[0] == '\\' && c[1] == '-' && k > 2 &&
                     c[2] >= 'a' && c[2] <= 'z')
                flag[k++] = '-', c += 2;
            else
                break;
        }
        flag[k] = '\0';
        int foreign = !strcmp(flag, "--cflags") || !strcmp(flag, "--libs");
        if (k > 2 && !foreign && !has(&all, flag) && !strstr(missing, flag))
            snprintf(missing + strlen(missing), sizeof missing -
                     strlen(missing), " %s (no help lists it)", flag);
    }
    if (missing[0])
        fail_msg("flags not where they belong:%s", missing);
    clear(&all);
    free(man), free(readme);
    for (int i = 0; i < 7; ++i)
        free(doc[i]);
}

/* A value each generic flag takes (a new flag needs one here). */
static const char *sample(const char *flag)
{
    static const char *const v[][2] = {
        {"--arch", "sm_90"},          {"--type", "f32"},
        {"--size", "64x64"},          {"--sizes", "64x64,128x128"},
        {"-o", "out.cu"},             {"--name", "my_launcher"},
        {"--effort", "estimate"},     {"--record", "rec.csv"},
        {"--data", "data"},           {"--device", "0"},
        {"--jobs", "2"},              {"--seed", "5"},
        {"--strategy", "random"},     {"--budget", "5"},
        {"--compile-limit", "5"},     {"--kernel-limit", "5"},
        {"--seeds", "3"},             {"--csv", "b.csv"},
        {"--sweep", "2"},             {"--devices", "0"},
        {"--resume", "r.csv"},
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; ++i)
        if (strcmp(v[i][0], flag) == 0)
            return v[i][1];
    return NULL;
}

static const char *const switches[] = {
    "--from-cache", "--retune",  "--json",  "--no-compile-cache",
    "--warm-l2",    "--verify-all", "--quiet", "--list", NULL};

/* Each command takes exactly the generic flags its help lists. */
static void commands_take_what_help_lists(void **state)
{
    (void)state;
    static const struct {
        const char *help[4], *line[6];
    } cmds[] = {
        {{"kernel", NULL}, {"kernel", AT_EXAMPLES
                            "/kernels/vector_add/vector_add.yaml", "--arch",
                            "sm_90", NULL}},
        {{"space", NULL}, {"space", "transpose", NULL}},
        {{"replay", NULL}, {"replay", "r.csv", NULL}},
        {{"bench", NULL}, {"bench", "transpose", "--list", NULL}},
        {{"bench", "tune", NULL}, {"bench", "tune", NULL}},
        {{"tune-list", NULL}, {"tune-list", "list.txt", NULL}},
    };
    flag_set every = {{0}, 0};
    char *top = help_of((const char *[]){NULL});
    help_flags(top, &every, 1);
    free(top);
    for (size_t c = 0; c < sizeof cmds / sizeof *cmds; ++c) {
        flag_set listed = {{0}, 0};
        char *h = help_of(cmds[c].help);
        help_flags(h, &listed, 1);
        free(h);
        for (int i = 0; i < every.n; ++i) {
            const char *f = every.name[i];
            if (!strcmp(f, "-h") || !strcmp(f, "--help") ||
                !strcmp(f, "--version") || !strncmp(f, "--size-", 7))
                continue;
            int sw = 0;
            for (const char *const *s = switches; *s; ++s)
                sw |= strcmp(*s, f) == 0;
            const char *v = sample(f);
            if (!sw && !v)
                fail_msg("%s: no sample value in the test", f);
            const char *args[12];
            int n = 0;
            for (; cmds[c].line[n]; ++n)
                args[n] = cmds[c].line[n];
            args[n++] = f;
            if (!sw)
                args[n++] = v;
            args[n] = NULL;
            char *out, *err;
            int st = run(args, &out, &err);
            int refused = st == 2 && strstr(err, " is for ");
            int listed_here = has(&listed, f);
            if (refused == listed_here)
                fail_msg("%s %s: %s but %s listed (status %d: %s)",
                         cmds[c].line[0], f, refused ? "refused" : "taken",
                         listed_here ? "" : "not", st, err);
            free(out), free(err);
        }
        clear(&listed);
    }
    clear(&every);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_command_helps),
        cmocka_unit_test(help_matches_the_docs),
        cmocka_unit_test(commands_take_what_help_lists),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, setup, teardown);
}
