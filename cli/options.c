#include "options.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/pcg.h"
#include "base/safefile.h"
#include "errors.h"
#include "flags.h"
#include "gen/family.h"
#include "spec/spec.h"
#include "gen/ident.h"
#include "search/strategy.h"

int at_bad_usage(const char *fmt, const char *arg)
{
    char msg[1024];
    snprintf(msg, sizeof msg, fmt, arg);
    at_cli_say("%s (see autotune --help)\n", msg);
    return 2;
}

/* A whole decimal number in [min, max]; nothing else accepted. */
static int parse_num(const char *flag, const char *s, long long min,
                     long long max, long long *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    int digits = (s[0] >= '0' && s[0] <= '9') ||
                 (s[0] == '-' && s[1] >= '0' && s[1] <= '9');
    if (!digits || *end || errno == ERANGE || x < min || x > max) {
        at_cli_say("%s needs a whole number from %lld to %lld, got '%s'\n",
                   flag, min, max, s);
        return 2;
    }
    *v = x;
    return 0;
}

/* --seed: 1 to 2^63 - 1, so it is exact wherever it is written. */
static int parse_seed(const char *v, unsigned long long *seed)
{
    char *end;
    errno = 0;
    *seed = strtoull(v, &end, 10);
    if (!(*v >= '0' && *v <= '9') || *end || errno == ERANGE || *seed == 0 ||
        *seed > AT_SEED_MAX) {
        at_cli_say("--seed needs a whole number from 1 to %llu, got '%s'\n",
                   AT_SEED_MAX, v);
        return 2;
    }
    return 0;
}

void at_field_flag(const char *field, char *buf, size_t n)
{
    snprintf(buf, n, "--%s", field);
    for (char *c = buf + 2; *c; ++c)
        if (*c == '_')
            *c = '-';
}

/* "ld_in" for "--ld-in", if it names a field of f; else -1. */
static int field_of_flag(const at_family *f, const char *flag)
{
    if (!f || strncmp(flag, "--", 2) != 0)
        return -1;
    char name[64];
    snprintf(name, sizeof name, "%s", flag + 2);
    for (char *c = name; *c; ++c)
        if (*c == '-')
            *c = '_';
        else if (*c == '_')
            return -1; /* flags spell fields with '-' */
    return at_field_index(f, name);
}

int at_looks_like_spec(const char *w)
{
    static const char *const ext[] = {".yaml", ".yml", ".json"};
    size_t n = strlen(w);
    for (size_t k = 0; k < sizeof ext / sizeof *ext; ++k) {
        size_t m = strlen(ext[k]);
        if (n > m && strcmp(w + n - m, ext[k]) == 0)
            return 1;
    }
    return 0;
}

/* The family of the spec at path, registered; 2 (said) if it is not
 * one. */
static int load_spec(const char *path, opts *o)
{
    const at_family *f;
    at_err e = {0};
    if (at_spec_family_load(path, &f, &e)) {
        at_cli_fail(&e);
        return 2;
    }
    o->family = f->name;
    o->spec = path;
    return 0;
}

/* The command word and the family (or the record, for replay). */
static int parse_command(int argc, char **argv, opts *o, int *i)
{
    static const char *const cmds[] = {"space", "bench", "replay",
                                       "tune-list"};
    o->cmd = "tune";
    for (size_t k = 0; *i < argc && k < sizeof cmds / sizeof *cmds; ++k)
        if (strcmp(argv[*i], cmds[k]) == 0) {
            o->cmd = cmds[k];
            ++*i;
            break;
        }
    if (strcmp(o->cmd, "space") == 0)
        o->arch = "sm_90";
    if (strcmp(o->cmd, "replay") == 0 || strcmp(o->cmd, "tune-list") == 0) {
        if (*i >= argc || argv[*i][0] == '-')
            return at_bad_usage("%s", strcmp(o->cmd, "replay") == 0
                                ? "replay needs a record (FILE.csv)"
                                : "tune-list needs a list of problems "
                                  "(FILE: a problem a line)");
        o->file = argv[(*i)++];
        return 0;
    }
    /* bench tune [FAMILY]: tuning times, transpose's by default. */
    if (strcmp(o->cmd, "bench") == 0 && *i < argc &&
        strcmp(argv[*i], "tune") == 0) {
        o->cmd = "bench-tune";
        if (++*i >= argc || argv[*i][0] == '-') {
            o->family = "transpose";
            return 0;
        }
    }
    if (*i >= argc || argv[*i][0] == '-')
        return at_bad_usage("%s", "missing family");
    o->family = argv[(*i)++];
    /* kernel SPEC, or a spec file where the family goes: a family made
     * from the spec at run time. */
    int spec = strcmp(o->family, "kernel") == 0;
    if (spec && (*i >= argc || argv[*i][0] == '-'))
        return at_bad_usage("%s", "kernel needs a spec file (SPEC.yaml)");
    if (spec || (!at_family_find(o->family) && at_looks_like_spec(o->family)))
        return load_spec(spec ? argv[(*i)++] : o->family, o);
    if (!at_family_find(o->family)) {
        char known[256];
        at_family_list(known, sizeof known);
        at_cli_say("unknown family '%s' (known: %s)\n",
                o->family, known);
        return 2;
    }
    return 0;
}

/* The fields a size gives, and how messages say it: a spec's size_x,
 * size_y, size_z (one to as many as it has), else rows and cols, else n. */
static const char *const size_sets[3][4] = {
    {"size_x", "size_y", "size_z", "one to three sizes as the spec has "
                                   "them (AxBxC)"},
    {"rows", "cols", NULL, "AxB (rows x cols)"}, {"n", NULL, NULL, "N (n)"}};

int at_opts_set_size(opts *o, const char *flag, const char *v)
{
    const at_family *fam = o->family ? at_family_find(o->family) : NULL;
    char forms[160] = "", msg[256];
    int dims = 1, fit = -1, idx[3];
    if (!fam) /* replay: no family */
        return at_bad_usage("%s is for a family's problem", flag);
    for (const char *c = v; *c; ++c)
        dims += *c == 'x';
    for (int s = 0; s < 3; ++s) {
        int k = 0, got[3];
        while (k < 3 && size_sets[s][k] &&
               (got[k] = at_field_index(fam, size_sets[s][k])) >= 0)
            ++k;
        if (!k || (s && k < 3 && size_sets[s][k]))
            continue; /* the family lacks these fields */
        snprintf(forms + strlen(forms), sizeof forms - strlen(forms),
                 "%s%s", forms[0] ? " or " : "", size_sets[s][3]);
        if (fit < 0 && (s ? dims == k : dims <= k)) {
            fit = s;
            memcpy(idx, got, sizeof got);
        }
        if (s == 0) /* a spec's: only those */
            break;
    }
    for (int d = 0, at = 0; fit >= 0 && d < dims; ++d) {
        size_t n = strcspn(v + at, "x");
        if (n == 0 || n >= sizeof o->size_text[d])
            fit = -1;
        snprintf(o->size_text[d], sizeof o->size_text[d], "%.*s", (int)n,
                 v + at);
        o->field[idx[d]] = o->size_text[d];
        at += (int)n + 1;
    }
    snprintf(msg, sizeof msg, "%s needs %s, got '%%s'", flag,
             forms[0] ? forms : "a size (the family has none)");
    if (fit < 0)
        return at_bad_usage(msg, v);
    o->shape_given = 1;
    return 0;
}

/* A flag field given without one of its choices after it. */
static int bare_flag(const at_field *f, const char *next)
{
    if (!f->flag)
        return 0;
    for (int k = 0; next && f->choices[k]; ++k)
        if (strcmp(f->choices[k], next) == 0)
            return 0;
    return 1;
}

/* A flag's value into o, as its kind says. 0, or 2 said. */
static int set_flag(opts *o, const at_flag *fl, const char *v)
{
    char *at = (char *)o + fl->off;
    switch (fl->kind) {
    case AT_FLAG_TEXT:
        *(const char **)(void *)at = v;
        o->shape_given |= fl->off == offsetof(opts, type);
        return 0;
    case AT_FLAG_NUMBER:
        return parse_num(fl->flag, v, fl->min, fl->max,
                         (long long *)(void *)at);
    case AT_FLAG_SWITCH:
        *(int *)(void *)at = 1;
        return 0;
    case AT_FLAG_SIZE:
        return at_opts_set_size(o, fl->flag, v) ? 2 : 0;
    case AT_FLAG_SEED:
        return parse_seed(v, &o->seed);
    }
    return 2;
}

/* A flag the command does not take: which commands do. */
static int not_for(const at_flag *fl, int bit)
{
    char msg[256];
    size_t k = 0;
    int left = 0;
    msg[0] = '\0';
    for (int b = 1; b <= AT_CMD_TUNE_LIST; b <<= 1)
        left += (fl->cmds & b) != 0;
    for (int b = 1; b <= AT_CMD_TUNE_LIST && k < sizeof msg; b <<= 1)
        if (fl->cmds & b) /* "tuning, space and bench" */
            k += (size_t)snprintf(msg + k, sizeof msg - k, "%s%s",
                                  !k ? "" : --left == 1 ? " and " : ", ",
                                  at_cmd_said(b));
    at_cli_say("%s is for %s, not %s (autotune help %s: what it takes)\n",
               fl->flag, msg, at_cmd_said(bit),
               bit == AT_CMD_TUNE ? "FAMILY" : at_cmd_said(bit));
    return 2;
}

/* The flags after the command: the generic ones from flags.c's table,
 * the rest the family's problem fields. */
static int parse_flags(int argc, char **argv, int i, opts *o)
{
    const at_family *fam = at_family_find(o->family);
    int bit = at_cmd_bit(o->cmd);
    for (; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const at_flag *fl = at_flags;
        while (fl->flag && strcmp(a, fl->flag) != 0)
            ++fl;
        int field = fl->flag ? -1 : field_of_flag(fam, a);
        if (!fl->flag && field < 0)
            return at_bad_usage("unknown option '%s'", a);
        if (fl->flag && !(fl->cmds & bit))
            return not_for(fl, bit);
        if (field >= 0 && bit == AT_CMD_REPLAY)
            return at_bad_usage("%s: replay takes no problem", a);
        if (field >= 0 && bare_flag(&fam->fields[field], v)) {
            const char *const *c = fam->fields[field].choices;
            while (c[1])
                ++c;
            o->field[field] = *c;
            o->shape_given = 1;
            continue;
        }
        if (fl->flag && !fl->arg) {
            if (set_flag(o, fl, NULL))
                return 2;
            continue;
        }
        if (!v)
            return at_bad_usage("%s needs a value", a);
        ++i;
        if (fl->flag) {
            if (set_flag(o, fl, v))
                return 2;
            continue;
        }
        at_err e = {0};
        int64_t x;
        if (at_field_parse(&fam->fields[field], v, &x, &e)) {
            at_cli_say("%s %s\n", a, e.msg);
            return 2;
        }
        o->field[field] = v;
        o->shape_given = 1;
    }
    return 0;
}

static int bad_strategy(const opts *o)
{
    at_cli_say("unknown strategy '%s' (known: %s)\n", o->strategy,
               at_strategy_list());
    return 2;
}

/* What the flags' table cannot say: rules between flags, and values
 * that are for one command alone. */
static int check_command(opts *o)
{
    if (strchr(o->arch, ',') && strcmp(o->cmd, "tune") != 0)
        return at_bad_usage("%s", "a list of architectures is for tuning "
                                  "(autotune FAMILY or autotune kernel "
                                  "SPEC)");
    if (o->data && (!o->spec || o->sizes || o->from_cache ||
                    strchr(o->arch, ',')))
        return at_bad_usage("%s", "--data is for one problem of a spec");
    if (o->resume && o->json)
        return at_bad_usage("%s", "--resume with --json: a resumed row has "
                                  "no tuned point or seed to say");
    if (o->sweep && o->shape_given)
        return at_bad_usage("%s", "--sweep draws its problems: no --type "
                                  "or problem fields with it");
    if (o->strategy && !at_strategy_find(o->strategy))
        return bad_strategy(o);
    if (o->json && o->out && strcmp(o->out, "-") == 0)
        return at_bad_usage("%s", "--json and -o - both want stdout");
    return 0;
}

int at_opts_parse(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    o->arch = "auto";
    o->seeds = 100;
    int i = 1, rc = parse_command(argc, argv, o, &i);
    if (!rc)
        rc = parse_flags(argc, argv, i, o);
    /* The type: as given, else the family's only one, else f32. */
    const at_family *fam = o->family ? at_family_find(o->family) : NULL;
    if (!o->type)
        o->type = fam && fam->types && !strchr(fam->types, ' ')
                      ? fam->types : "f32";
    if (!rc)
        rc = check_command(o);
    if (!rc && strcmp(o->cmd, "replay") != 0)
        rc = at_opts_check_values(o);
    if (!rc)
        rc = at_opts_check_paths(o);
    return rc;
}

int at_opts_problem(const opts *o, at_problem *p)
{
    at_err e = {0};
    int rc = at_problem_begin(p, o->family, o->type, &e);
    for (int i = 0; !rc && i < p->family->n_fields; ++i) {
        const at_field *fd = &p->family->fields[i];
        if (!o->field[i])
            continue;
        rc = at_problem_set(p, fd->name, o->field[i], &e);
        /* 0 is the family's "derived" mark, never a size asked for, by
         * its flag, --size or --sizes alike. */
        if (!rc && !fd->choices && !fd->real && fd->min == 0 &&
            p->v[i] == 0) {
            char flag[64];
            at_field_flag(fd->name, flag, sizeof flag);
            at_cli_say("%s needs a whole number from 1 to %lld, got '%s' "
                       "(leave it out for the default)\n", flag,
                       (long long)fd->max, o->field[i]);
            return 2;
        }
    }
    if (!rc)
        rc = at_problem_finish(p, &e);
    if (rc) {
        at_cli_fail(&e);
        return 2;
    }
    return 0;
}

int at_parse_arch(const char *s)
{
    if (strncmp(s, "sm_", 3) != 0 || s[3] < '1' || s[3] > '9')
        return 0;
    int sm = 0, k = 3;
    for (; s[k] >= '0' && s[k] <= '9' && k < 6; ++k)
        sm = sm * 10 + (s[k] - '0');
    return s[k] == '\0' && k >= 5 ? sm : 0;
}

void at_opts_tune(const opts *o, at_tune_opts *t)
{
    *t = (at_tune_opts){
        .jobs = (int)o->jobs, .seed = o->seed,
        .progress = o->quiet ? NULL : stderr, .strategy = o->strategy,
        .budget_evals = o->budget_evals, .budget_s = o->budget_s,
        .compile_limit_s = o->limit_s,
        .kernel_limit_s = o->klimit_s, .warm_l2 = o->warm_l2,
        .verify_all = o->verify_all, .effort = o->effort,
        .no_cubin_cache = o->no_cubins, .retune = o->retune || o->record};
}
