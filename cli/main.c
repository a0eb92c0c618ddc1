/* autotune: the command line.
 *
 *   autotune FAMILY --arch auto|sm_XX [problem flags] [-o FILE] ...
 *   autotune space FAMILY [--type T] [--arch sm_XX] [problem flags]
 *   autotune replay FILE.csv [--json] [--seeds N] [--strategy S]
 *   autotune bench FAMILY [--csv FILE] [problem flags] [tuning flags]
 *   autotune bench tune [FAMILY] [--csv FILE] [problem flags] [--jobs N]
 *   autotune cache list|show|export FILE|import FILE|remove|clear [...]
 *
 * Exit status: 0 done, 1 failed, 2 bad usage. Errors are one line on
 * stderr. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "commands.h"
#include "errors.h"
#include "gen/family.h"
#include "runtime/gpu_worker.h"

static const char *usage =
    "usage:\n"
    "  autotune FAMILY --arch auto|sm_XX [options]  tune and emit a .cu\n"
    "  autotune kernel SPEC.yaml [--size AxB] --arch auto|sm_XX [options]\n"
    "                   tune your own kernel, described in a spec file\n"
    "                   (docs/SPEC.md); a spec may stand where FAMILY does\n"
    "  autotune space FAMILY [--type T] [--arch sm_XX]  list the space\n"
    "  autotune replay FILE.csv [--json] [--seeds N] [--strategy S]\n"
    "                   run the strategies on a recorded space, no GPU\n"
    "  autotune bench FAMILY [--csv FILE] [options]\n"
    "                   bandwidth against memcpy and the libraries and\n"
    "                   kernels a user would pick instead: the suite,\n"
    "                   N problems drawn at random (--sweep N), or the\n"
    "                   problem the flags give\n"
    "  autotune bench tune [FAMILY] [--csv FILE] [options]\n"
    "                   tuning times: cold, warm and cache-hit runs of\n"
    "                   8192x8192 f32 and f64 (or the problem the flags\n"
    "                   give) on empty caches of their own\n"
    "  autotune cache list|show|export FILE|import FILE|remove|clear\n"
    "                   the tuning cache's entries: list them, show one,\n"
    "                   export them to a wisdom file and import it on\n"
    "                   another machine, remove some or all\n"
    "                   (autotune cache --help: its options;\n"
    "                   docs/WISDOM.md)\n"
    "  autotune --help | --version\n"
    "\n"
    "options:\n"
    "  --arch auto      tune on this machine's GPU (default)\n"
    "  --arch sm_XX     emit for that architecture: tuned here if this GPU\n"
    "                   is one, else from the cache, else the default point\n"
    "  --type T         element type: i8, u8, f16, bf16, f32 (default), f64,\n"
    "                   c64, c128, f32x4\n"
    "  -o FILE          output .cu ('-': stdout; default\n"
    "                   FAMILY_TYPE_<shape>.cu)\n"
    "  --name NAME      launcher name (default autotune_FAMILY_TYPE)\n"
    "  --size AxB[xC]   the problem's sizes (rows x cols; n; a spec's size_x...)\n"
    "  --sizes S,S,...  one .cu for several problems: each S a --size (AxB\n"
    "                   rows x cols, N for reduce's n, a spec's AxBxC)\n"
    "  --from-cache     one .cu for every tuned problem of the family and\n"
    "                   type in the cache for this GPU (or --arch)\n"
    "  --arch sm_80,sm_90  kernels for each, chosen at run time\n"
    "  --device N       CUDA device ordinal (default 0)\n"
    "  --jobs N         compile worker processes (default: processors)\n"
    "  --seed S         seed of the random input and the search (default:\n"
    "                   fresh, printed)\n"
    "  --strategy S     exhaustive (default), random, local, genetic\n"
    "  --budget N|Ts    stop after N evaluations or T seconds of search;\n"
    "                   a budgeted winner is not stored in the cache\n"
    "  --record F.csv   write every evaluation (implies --retune)\n"
    "  --retune         tune even if the cache has an answer\n"
    "  --json           the run's summary as JSON on stdout\n"
    "  --compile-limit S  seconds per variant's compilation (default 60)\n"
    "  --kernel-limit S   seconds a variant's launch may run on the GPU\n"
    "                   before it counts as hung (default: 1000 times the\n"
    "                   copy's time, at least 1)\n"
    "  --no-compile-cache  compile every variant (no compiled-variant cache)\n"
    "  --warm-l2        time from L2 (no buffer rotation for small inputs)\n"
    "  --verify-all     check every variant on the problem itself before\n"
    "                   timing it (default: on the check shapes, and on the\n"
    "                   problem once it could lead)\n"
    "  --seeds N        replay: seeds per strategy (default 100)\n"
    "  --csv FILE       bench: where the CSV goes (default\n"
    "                   bench_FAMILY.csv; bench tune: GPU-tune.csv, as\n"
    "                   h100-tune.csv)\n"
    "  --sweep N        bench: N problems drawn at random from --seed\n"
    "                   (every type, 1 MiB to 1 GiB, thin, batched and\n"
    "                   padded ones), the worst rows summed up last\n"
    "  --list           bench: print the problems and run nothing\n"
    "  --quiet          no progress on stderr\n";

static const char *environment =
    "environment: AUTOTUNE_CACHE (cache file), AUTOTUNE_CUBIN_CACHE\n"
    "  (compiled variants; default beside the cache), XDG_CACHE_HOME,\n"
    "  AUTOTUNE_NVRTC, AUTOTUNE_LIBCUDA, AUTOTUNE_CUBLAS,\n"
    "  AUTOTUNE_CUTENSOR, AUTOTUNE_WORKER\n"
    "  (the GPU worker binary; default this one; \"none\": tune in-process,\n"
    "  a faulting variant then ends the run)\n";

/* Each family's problem flags, from its field table. */
static void family_help(FILE *f)
{
    for (int i = 0; at_family_at(i); ++i) {
        const at_family *fam = at_family_at(i);
        fprintf(f, "\n%s problem flags:\n", fam->name);
        for (int k = 0; k < fam->n_fields; ++k) {
            char flag[64];
            at_field_flag(fam->fields[k].name, flag, sizeof flag);
            fprintf(f, "  %-15s  %s\n", flag, fam->fields[k].help);
        }
    }
    fputc('\n', f);
}

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
    };
    for (size_t i = 0; i < sizeof commands / sizeof *commands; ++i)
        if (strcmp(o.cmd, commands[i].name) == 0)
            return commands[i].run(&o, argc, argv);
    return at_bad_usage("unknown command '%s'", o.cmd);
}

int main(int argc, char **argv)
{
    /* The tuner's own GPU worker (runtime/gpu_worker.h). */
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
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage, stdout);
        family_help(stdout);
        fputs(environment, stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("autotune %s\n", AUTOTUNE_VERSION);
        return 0;
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
    return rc;
}
