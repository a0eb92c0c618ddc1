/* The generic flags (flags.h). */
#include "flags.h"

#include <string.h>

#include "options.h"

#define T AT_CMD_TUNE
#define S AT_CMD_SPACE
#define R AT_CMD_REPLAY
#define B AT_CMD_BENCH
#define BT AT_CMD_BENCH_TUNE
#define TL AT_CMD_TUNE_LIST
#define TEXT(field) AT_FLAG_TEXT, offsetof(opts, field), 0, 0
#define NUMBER(field, lo, hi) AT_FLAG_NUMBER, offsetof(opts, field), lo, hi
#define SWITCH(field) AT_FLAG_SWITCH, offsetof(opts, field), 0, 0

const at_flag at_flags[] = {
    {"--arch", "auto|sm_XX",
     "auto: tune on this machine's GPU (default); sm_XX: emit for that\n"
     "architecture: tuned here if this GPU is one, else from the cache,\n"
     "else the default point; sm_80,sm_90: kernels for each, chosen at\n"
     "run time (space: sm_XX, default sm_90)",
     T | S, TEXT(arch)},
    {"--type", "T",
     "element type: i8, u8, f16, bf16, f32 (default), f64, c64, c128,\n"
     "f32x4 (the family's own: autotune space FAMILY)",
     T | S | B | BT, TEXT(type)},
    {"--size", "AxB[xC]",
     "the problem's sizes: rows x cols (transpose, reduce's matrix), N\n"
     "(reduce's n), a spec's size_x[xsize_y[xsize_z]]",
     T | S | B | BT, AT_FLAG_SIZE, 0, 0, 0},
    {"--sizes", "S,S,...",
     "one .cu for several problems, each S a --size, chosen at run time",
     T, TEXT(sizes)},
    {"--from-cache", NULL,
     "one .cu for every tuned problem of the family and type in the cache\n"
     "for this GPU (or --arch)",
     T, SWITCH(from_cache)},
    {"-o", "FILE",
     "the .cu written ('-': stdout; default FAMILY_TYPE_<shape>.cu)",
     T, TEXT(out)},
    {"--name", "NAME",
     "the launcher's name (default autotune_FAMILY_TYPE with the family's\n"
     "choices before the type, as autotune_reduce_max_f32; a spec's:\n"
     "autotune_KERNEL)",
     T, TEXT(name)},
    {"--effort", "E",
     "how hard a cache miss works: exhaustive (default: the whole\n"
     "space), measure (a budgeted search over 10% of it), estimate (no\n"
     "search: the nearest tuned problem's point or the default one,\n"
     "checked, not timed), wisdom-only (the cache or an error)",
     T | TL, TEXT(effort_text)},
    {"--record", "F.csv",
     "write every evaluation (implies --retune; needs a GPU to tune on)",
     T, TEXT(record)},
    {"--data", "DIR",
     "a spec's problem: its inputs, reference outputs and a manifest, for\n"
     "checking the emitted launcher in another harness (needs a GPU)",
     T, TEXT(data)},
    {"--device", "N", "CUDA device ordinal (default 0)", T | B | BT,
     NUMBER(device, 0, 1023)},
    {"--devices", "all|N,N,...",
     "tune a list's problems on these GPUs at once, one GPU worker each\n"
     "and one compile pool (--sizes, tune-list)",
     T | TL, TEXT(devices)},
    {"--jobs", "N", "compile worker processes (default: processors)",
     T | B | BT | TL, NUMBER(jobs, 1, 256)},
    {"--seed", "S",
     "seed of the random input and the search (default: fresh, printed)",
     T | B | TL, AT_FLAG_SEED, 0, 0, 0},
    {"--strategy", "S", "exhaustive (default), random, local, genetic",
     T | B | R | TL, TEXT(strategy)},
    {"--budget", "N|Ts",
     "stop after N evaluations or T seconds of search; a budgeted winner\n"
     "is not stored in the cache",
     T | B, TEXT(budget)},
    {"--retune", NULL,
     "tune even if the cache has an answer, and retry variants that\n"
     "failed before",
     T | B | TL, SWITCH(retune)},
    {"--json", NULL,
     "the run's summary as one JSON object on stdout (docs/schema)",
     T | S | R | B | BT, SWITCH(json)},
    {"--compile-limit", "S",
     "seconds a variant's compilation may take (default 60)",
     T | B | BT | TL,
     TEXT(limit)},
    {"--kernel-limit", "S",
     "seconds a variant's launch may run on the GPU before it counts as\n"
     "hung (default: 1000 times the copy's time, at least 1)",
     T | B | BT | TL, TEXT(klimit)},
    {"--no-compile-cache", NULL,
     "compile every variant (no compiled-variant cache)", T | B | TL,
     SWITCH(no_cubins)},
    {"--warm-l2", NULL, "time from L2 (no buffer rotation for small inputs)",
     T | B | TL, SWITCH(warm_l2)},
    {"--verify-all", NULL,
     "check every variant on the problem itself before timing it\n"
     "(default: on the check shapes, and on the problem once it could\n"
     "lead)",
     T | B | TL, SWITCH(verify_all)},
    {"--quiet", NULL, "no progress on stderr", T | B | BT | TL,
     SWITCH(quiet)},
    {"--seeds", "N", "seeds per strategy (default 100)", R,
     NUMBER(seeds, 1, 1000000)},
    {"--csv", "FILE",
     "where the CSV goes (default bench_FAMILY.csv; bench tune:\n"
     "GPU-tune.csv, as h100-tune.csv; replay: every evaluation of\n"
     "every seed, for autotune plot --convergence)",
     B | BT | R, TEXT(csv)},
    {"--sweep", "N",
     "N problems drawn at random from --seed instead of the suite (every\n"
     "type, 1 MiB to 1 GiB, thin, batched and padded ones)",
     B, NUMBER(sweep, 1, 100000)},
    {"--list", NULL, "print the problems and run nothing (no GPU needed)", B,
     SWITCH(list)},
    {"--resume", "FILE",
     "take the problems an earlier run's CSV holds (a whole one, or the\n"
     "partial one a stopped run left) from it and run the rest; the new\n"
     "CSV and the summary hold them all (all there: no GPU needed)",
     B, TEXT(resume)},
    {NULL, NULL, NULL, 0, AT_FLAG_TEXT, 0, 0, 0},
};

static const struct {
    const char *name, *said;
    int bit;
} cmds[] = {{"tune", "tuning", T},       {"space", "space", S},
            {"replay", "replay", R},     {"bench", "bench", B},
            {"bench-tune", "bench tune", BT},
            {"tune-list", "tune-list", TL}};

int at_cmd_bit(const char *cmd)
{
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; ++i)
        if (strcmp(cmd, cmds[i].name) == 0)
            return cmds[i].bit;
    return 0;
}

const char *at_cmd_said(int bit)
{
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; ++i)
        if (cmds[i].bit == bit)
            return cmds[i].said;
    return "?";
}
