/* autotune: the command line.
 *
 *   autotune FAMILY --arch auto|sm_XX [problem flags] [-o FILE] ...
 *   autotune space FAMILY [--type T] [--arch sm_XX] [problem flags]
 *   autotune replay FILE.csv [--json] [--seeds N] [--strategy S]
 *   autotune bench FAMILY [--csv FILE] [problem flags] [tuning flags]
 *   autotune bench tune [FAMILY] [--csv FILE] [problem flags] [--jobs N]
 *   autotune cache list|show|export FILE|import FILE|remove|clear [...]
 *   autotune plot RECORD.csv -o FILE [...] (the Python package draws it)
 *   autotune help [COMMAND], or -h/--help anywhere (help.c)
 *
 * Exit status: 0 done, 1 failed, 2 bad usage. Errors are one line on
 * stderr. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "commands.h"
#include "errors.h"
#include "help.h"
#include "gen/family.h"
#include "runtime/plan/plan.h"

/* The command, once its options parse. */
static int run(int argc, char **argv)
{
    opts o;
    int rc = at_opts_parse(argc, argv, &o);
    if (rc)
        return rc;
    static const struct {
        const char *name;
        int (*run)(const opts *o, int argc, char **argv);
    } commands[] = {
        {"space", at_cmd_space},
        {"replay", at_cmd_replay},
        {"bench", at_cmd_bench_opts},
        {"bench-tune", at_cmd_bench_tune},
        {"tune", at_cmd_tune},
        {"tune-list", at_cmd_tune_list},
    };
    for (size_t i = 0; i < sizeof commands / sizeof *commands; ++i)
        if (strcmp(o.cmd, commands[i].name) == 0)
            return commands[i].run(&o, argc, argv);
    return at_bad_usage("unknown command '%s'", o.cmd);
}

/* What went to stdout reached it: a full disk or a closed pipe is a
 * failure said on stderr, whatever the command printed. */
static int stdout_written(int rc)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return rc;
    at_cli_say("writing to standard output: %s\n",
               errno ? strerror(errno) : "an error");
    return rc ? rc : 1;
}

int main(int argc, char **argv)
{
    /* The tuner's own GPU worker (runtime/plan/plan.h). */
    if (argc == 2 && strcmp(argv[1], "__gpu-worker") == 0)
        return at_worker_main();
    /* Tunes run their device work in this same binary. */
    char self[1024];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        at_worker_set_path(self);
    }
    if (argc < 2)
        return at_bad_usage("%s", "missing command");
    /* plot's flags and help are the Python package's. */
    if (strcmp(argv[1], "plot") == 0)
        return at_cmd_plot(argc, argv);
    if (at_help_wanted(argc, argv))
        return stdout_written(at_help(argc, argv));
    if (strcmp(argv[1], "--version") == 0) {
        printf("autotune %s\n", AUTOTUNE_VERSION);
        return stdout_written(0);
    }
    /* With --json, a failure answers on stdout too (autotune.error/1),
     * whatever stage it failed at. */
    int json = 0;
    for (int i = 1; i < argc; ++i)
        json |= strcmp(argv[i], "--json") == 0;
    /* The cache tools parse options of their own. */
    int rc = strcmp(argv[1], "cache") == 0 ? at_cmd_cache(argc, argv)
                                           : run(argc, argv);
    if (rc && json)
        at_cli_error_json(rc);
    return stdout_written(rc);
}
