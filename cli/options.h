/* The command line's options: the generic ones (a table here) and the
 * problem's, which are the family's fields (--rows for the field rows,
 * --ld-in for ld_in), parsed through the family's table. */
#ifndef AT_OPTIONS_H
#define AT_OPTIONS_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "runtime/tune/tune.h"

typedef struct opts {
    const char *cmd;    /* "tune", "space", "bench", "replay",
                         * "tune-list" */
    const char *family, *type, *arch, *out, *name;
    const char *strategy, *budget, *record, *limit, *klimit, *file;
    const char *csv;
    const char *resume; /* bench: an earlier run's CSV to go on from */
    const char *data; /* --data DIR: a spec's problem's data for a harness */
    const char *effort_text; /* --effort's value */
    int effort;       /* AUTOTUNE_ESTIMATE..WISDOM_ONLY; 0: not given */
    long long device, jobs, seeds;
    long long sweep;  /* bench: problems drawn at random instead */
    int list;         /* bench: print the problems, run nothing */
    int shape_given; /* --type or a problem field: bench takes one problem */
    unsigned long long seed;
    int quiet, json, retune, no_cubins, warm_l2, verify_all;
    size_t budget_evals;
    double budget_s, limit_s, klimit_s;
    const char *field[AT_MAX_FIELDS]; /* the family's fields as given */
    const char *spec; /* the spec file the family came from, or NULL */
    char size_text[3][24]; /* --size's values */
    const char *sizes; /* --sizes: a comma list of --size's */
    const char *devices; /* --devices: all, or a comma list of ordinals */
    int from_cache;    /* --from-cache */
} opts;

/* Values that need more than a number (option_values.c): budget, limits,
 * effort, type, name, paths. 0, or 2 said. */
int at_opts_check_values(opts *o);
/* Refuses (2, said) an output path that is one of the command's inputs
 * (the spec, a file it names, the cache, the compiled-variant cache, a
 * replayed record) or another of its outputs (paths.c). */
int at_opts_check_paths(const opts *o);
/* The cache's path (given, or the default one) and the compiled-variant
 * cache's, nothing made; -1 if there is no cache path ("" for the second
 * where it is the first). */
int at_cli_cache_paths(const char *given, char *cache, char *cubins,
                       size_t n);
/* Parses argv into o. 0, or 2 with the reason said on stderr. */
int at_opts_parse(int argc, char **argv, opts *o);
/* The problem the options give, finished; 2 (said) if it is not one. */
int at_opts_problem(const opts *o, at_problem *p);
/* The tuning options the flags give (record: the caller's). */
void at_opts_tune(const opts *o, at_tune_opts *t);
/* "--ld-in" for the field "ld_in": how a field is spelled as a flag. */
void at_field_flag(const char *field, char *buf, size_t n);
/* Sets the fields a size gives ("AxB": rows and cols; "N": n; a spec's
 * "AxBxC": size_x, size_y, size_z), as --size does; 2 (said, naming
 * flag) if it is not a size of the family. */
int at_opts_set_size(opts *o, const char *flag, const char *size);
/* --arch: auto (0), or sm_XX and lists of them (sm_80,sm_90), repeats
 * out; how many, 0 if not one of those (tune_lists.c). */
int at_parse_archs(const char *s, int *sm, int max);
/* The problems --sizes lists (the other fields as given), repeats out:
 * *n of them in *ps (malloc'd); 2 (said) if one is not a problem. */
int at_sized_problems(const opts *o, at_problem **ps, int *n);
/* --devices: all (the driver's count), or ordinals apart by commas,
 * each once: *out (malloc'd), *n; 2 (said) if not, 1 (said) if "all"
 * finds no device (tune_lists.c). */
int at_parse_devices(const char *s, int **out, int *n);
/* Whether a word names a spec file: .yaml, .yml or .json. */
int at_looks_like_spec(const char *w);
/* "sm_90" -> 90; 0 unless "sm_" and two or three digits, no leading 0. */
int at_parse_arch(const char *s);
/* Prints "autotune: <fmt with arg> (see autotune --help)"; returns 2. */
int at_bad_usage(const char *fmt, const char *arg);

#endif
