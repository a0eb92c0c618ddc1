/* -h, --help and `autotune help [COMMAND]` (help.h): what each command
 * does and every flag it takes, from the table the parser reads
 * (flags.c) and the families' field tables, so the help cannot list a
 * flag the command refuses or leave out one it takes. */
#include "help.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "errors.h"
#include "flags.h"
#include "gen/family.h"
#include "spec/spec.h"
#include "options.h"

static const struct {
    const char *word; /* as typed after autotune */
    int bit;
    const char *usage, *what;
} commands[] = {
    {"tune", AT_CMD_TUNE, "autotune FAMILY --arch auto|sm_XX [options]",
     "tune a family's problem (transpose, reduce) and emit a standalone\n"
     ".cu; the tuned kernel is cached per GPU model"},
    {"kernel", AT_CMD_TUNE, "autotune kernel SPEC.yaml --arch auto|sm_XX "
     "[options]",
     "tune your own kernel, described in a spec file (docs/SPEC.md), and\n"
     "emit your source with the winning defines and a launcher"},
    {"space", AT_CMD_SPACE, "autotune space FAMILY|SPEC [options]",
     "the space for a problem and an architecture: its axes, counts and\n"
     "every valid point's name"},
    {"replay", AT_CMD_REPLAY, "autotune replay FILE.csv [options]",
     "run the search strategies on a recorded space (--record), no GPU"},
    {"bench", AT_CMD_BENCH, "autotune bench FAMILY [options]",
     "bandwidth of the tuned kernels against the device-to-device copy\n"
     "and what a user would pick instead (cuBLAS, cuTENSOR, CUB): the\n"
     "suite, --sweep N problems drawn at random, or the problem the\n"
     "flags give"},
    {"tune-list", AT_CMD_TUNE_LIST, "autotune tune-list FILE [--devices "
     "all|N,N,...] [options]",
     "tune and store every problem of a list (a problem a line, as\n"
     "`transpose --type f32 --size 8192x8192`), on every GPU asked for\n"
     "(default device 0); with a PostgreSQL store, shared with every host\n"
     "running the list (docs/SCALE.md)"},
    {"bench-tune", AT_CMD_BENCH_TUNE, "autotune bench tune [FAMILY] "
     "[options]",
     "tuning times: cold, warm and cache-hit runs of 8192x8192 f32 and\n"
     "f64 (or the problem the flags give) on empty caches of their own,\n"
     "after two rows timing this host's NVRTC on one fixed program"},
};

static const char *environment =
    "environment:\n"
    "  AUTOTUNE_CACHE        the cache file (default\n"
    "                        ${XDG_CACHE_HOME:-~/.cache}/autotune/cache.db)\n"
    "  AUTOTUNE_CUBIN_CACHE  compiled variants (default beside the cache)\n"
    "  AUTOTUNE_NVRTC, AUTOTUNE_LIBCUDA, AUTOTUNE_CUBLAS, AUTOTUNE_CUTENSOR\n"
    "                        where those libraries are\n"
    "  AUTOTUNE_WORKER       the GPU worker binary (default this one;\n"
    "                        \"none\": tune in-process, a faulting variant\n"
    "                        then ends the run)\n"
    "  AUTOTUNE_PYTHON       plot's Python, with matplotlib (default python3)\n";

/* "  FLAG ARG  help", the help wrapped to 78 columns under its first
 * line (its own line breaks are spaces). */
static void flag_line(FILE *f, const char *flag, const char *arg,
                      const char *help)
{
    enum { INDENT = 22, WIDTH = 78 - INDENT };
    char head[64];
    snprintf(head, sizeof head, "%s%s%s", flag, arg ? " " : "",
             arg ? arg : "");
    fprintf(f, "  %-*s", INDENT - 2, head);
    int col = 0;
    if (strlen(head) > INDENT - 3)
        fprintf(f, "\n%*s", INDENT, "");
    for (const char *c = help; *c;) {
        while (*c == ' ' || *c == '\n')
            ++c;
        size_t w = strcspn(c, " \n");
        if (!w)
            break;
        if (col && col + 1 + (int)w > WIDTH) {
            fprintf(f, "\n%*s", INDENT, "");
            col = 0;
        }
        fprintf(f, "%s%.*s", col ? " " : "", (int)w, c);
        col += (col ? 1 : 0) + (int)w;
        c += w;
    }
    fputc('\n', f);
}

static void generic_flags(FILE *f, int bit)
{
    fputs("options:\n", f);
    for (const at_flag *fl = at_flags; fl->flag; ++fl)
        if (fl->cmds & bit)
            flag_line(f, fl->flag, fl->arg, fl->help);
    flag_line(f, "-h, --help", NULL, "this help");
}

static void family_flags(FILE *f, const at_family *fam)
{
    fprintf(f, "\n%s problem flags:\n", fam->name);
    for (int k = 0; k < fam->n_fields; ++k) {
        char flag[80];
        at_field_flag(fam->fields[k].name, flag, sizeof flag);
        const at_field *fd = &fam->fields[k];
        flag_line(f, flag, fd->flag ? NULL : fd->choices ? "CHOICE" : "N",
                  fd->help);
    }
}

/* The problem flags a command takes: the family's, every family's, or
 * what a spec's are. */
static void problem_flags(FILE *f, int bit, const at_family *fam,
                          int spec)
{
    if (bit == AT_CMD_REPLAY)
        return;
    if (fam) {
        family_flags(f, fam);
        return;
    }
    if (!spec) /* the built-in ones: help loads no spec but the one asked */
        for (int i = 0; at_family_at(i); ++i)
            family_flags(f, at_family_at(i));
    fputs("\na spec's problem flags:\n", f);
    flag_line(f, "--size-x, --size-y, --size-z", "N",
              "a spec's sizes one by one; its scalars are flags by their "
              "names too (autotune kernel SPEC --help lists them)");
}

static void overview(FILE *f)
{
    fputs("usage: autotune COMMAND ... (autotune help COMMAND: what it "
          "does and its flags)\n", f);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; ++i)
        fprintf(f, "  %s\n", commands[i].usage);
    fputs("  autotune cache list|show|export FILE|import FILE|remove|clear "
          "[options]\n"
          "  autotune plot RECORD.csv -o FILE.png|svg [--convergence] "
          "[options]\n"
          "  autotune help [COMMAND] | --help | --version\n\n", f);
    fputs("options (autotune help COMMAND: those a command takes):\n", f);
    for (const at_flag *fl = at_flags; fl->flag; ++fl)
        flag_line(f, fl->flag, fl->arg, fl->help);
    flag_line(f, "-h, --help", NULL, "this help");
    flag_line(f, "--version", NULL, "autotune's version");
    problem_flags(f, AT_CMD_TUNE, NULL, 0);
    fputc('\n', f);
    fputs(environment, f);
}

/* A command's help: what it does, its flags, its problem's flags. */
static void command_help(FILE *f, size_t c, const at_family *fam,
                         int spec)
{
    char usage[160];
    snprintf(usage, sizeof usage, "%s", commands[c].usage);
    if (fam && !spec) { /* "autotune transpose ..." for FAMILY[|SPEC] */
        char *w = strstr(usage, "FAMILY");
        if (w) {
            char rest[160];
            size_t skip = strncmp(w, "FAMILY|SPEC", 11) ? 6 : 11;
            snprintf(rest, sizeof rest, "%s", w + skip);
            snprintf(w, sizeof usage - (size_t)(w - usage), "%s%s",
                     fam->name, rest);
        }
    }
    fprintf(f, "usage: %s\n%s\n\n", usage, commands[c].what);
    generic_flags(f, commands[c].bit);
    problem_flags(f, commands[c].bit, fam, spec);
}

/* Skips flags and their values: the words that say which help. */
static int words(int argc, char **argv, const char **w, int max)
{
    int n = 0;
    for (int i = 1; i < argc && n < max; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "help") == 0 && n == 0)
            continue;
        if (a[0] == '-') {
            const at_flag *fl = at_flags;
            while (fl->flag && strcmp(fl->flag, a) != 0)
                ++fl;
            /* Its value is no word; a problem flag's (not in the table)
             * is taken to be the next word unless that is a flag. */
            i += fl->flag ? fl->arg != NULL
                          : i + 1 < argc && argv[i + 1][0] != '-';
            continue;
        }
        w[n++] = a;
    }
    return n;
}

int at_help_wanted(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "help") == 0)
        return 1;
    for (int i = 1; i < argc; ++i)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}

int at_help(int argc, char **argv)
{
    const char *w[4];
    int n = words(argc, argv, w, 4), k = 0;
    if (n == 0) {
        overview(stdout);
        return 0;
    }
    if (strcmp(w[0], "cache") == 0) {
        at_cache_help(stdout);
        return 0;
    }
    if (strcmp(w[0], "plot") == 0) /* the Python package's argparse */
        return at_cmd_plot(3, (char *[]){argv[0], "plot", "--help", NULL});
    const char *word = w[k];
    if (strcmp(word, "bench") == 0 && n > 1 && strcmp(w[1], "tune") == 0)
        word = "bench-tune", ++k;
    size_t c = 0;
    while (c < sizeof commands / sizeof *commands &&
           strcmp(commands[c].word, word) != 0)
        ++c;
    int spec = c < sizeof commands / sizeof *commands &&
               strcmp(word, "kernel") == 0;
    const char *what = NULL; /* the family or spec the help is for */
    if (c == sizeof commands / sizeof *commands)
        c = 0, what = word; /* one where the command goes: tune's help */
    else if (++k < n)
        what = w[k];
    const at_family *fam = NULL;
    if (what && !at_family_find(what) && !at_looks_like_spec(what)) {
        char known[256];
        at_family_list(known, sizeof known);
        at_cli_say("help: no command or family '%s' (commands: kernel, "
                   "space, replay, bench, bench tune, cache, plot; families: "
                   "%s)\n", what, known);
        return 2;
    }
    if (what && (fam = at_family_find(what)) == NULL) {
        at_err e = {0};
        if (at_spec_family_load(what, &fam, &e)) {
            at_cli_fail(&e);
            return 2;
        }
        spec = 1;
    }
    if (spec && c == 0)
        c = 1; /* kernel's usage */
    command_help(stdout, c, fam, spec);
    return 0;
}
