/* `autotune cache list|show|export|import|remove|clear`: the tuning cache
 * as a tool (docs/WISDOM.md). Its options are its own, parsed here before
 * the generic parser (cli/options.c) would see them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/safefile.h"
#include "base/text.h"
#include "commands.h"
#include "errors.h"
#include "json.h"
#include "runtime/store/store.h"
#include "wisdom.h"

enum { LIST = 1, SHOW = 2, EXPORT = 4, IMPORT = 8, REMOVE = 16, CLEAR = 32 };
#define FILTERED (LIST | SHOW | EXPORT | REMOVE)

static const char *cache_usage =
    "usage: autotune cache COMMAND [options]\n"
    "  list                 one line per entry of the tuning cache\n"
    "  show [N]             entries whole (N: the index list gives)\n"
    "  export FILE          entries as a wisdom file ('-': stdout)\n"
    "  import FILE          a wisdom file's entries into the cache\n"
    "                       ('-': stdin); all or nothing\n"
    "  remove [N]           the entries the filters select\n"
    "  clear                every entry and every failed variant\n"
    "options (the filters select entries for list, show, export, remove):\n"
    "  --family F           entries of a family\n"
    "  --type T             of an element type\n"
    "  --gpu TEXT           of GPUs whose name holds TEXT\n"
    "  --sm N|sm_N          of an architecture (90 or sm_90)\n"
    "  --index N            the N-th of those, as list numbers them\n"
    "  --cache PATH         the cache file (default: $AUTOTUNE_CACHE, else\n"
    "                       ${XDG_CACHE_HOME:-~/.cache}/autotune/cache.db)\n"
    "  --json               list, show: an autotune.cache/1 object\n"
    "  --cubins             export: the cubins too (import needs them)\n"
    "  --force              import: replace the cache's entries even when\n"
    "                       found at higher effort or faster\n"
    "  -h, --help           this help\n"
    "see docs/WISDOM.md\n";

static const struct {
    const char *name;
    int bit;
} subs[] = {{"list", LIST},     {"show", SHOW},     {"export", EXPORT},
            {"import", IMPORT}, {"remove", REMOVE}, {"clear", CLEAR}};

typedef struct cache_args {
    int sub;
    const char *name; /* the subcommand as given */
    at_cache_filter f;
    const char *cache, *file;
    int json, cubins, force;
} cache_args;

static const struct flag {
    const char *flag;
    int value; /* takes one */
    int subs;  /* where it applies */
} flags[] = {
    {"--family", 1, FILTERED}, {"--type", 1, FILTERED},
    {"--gpu", 1, FILTERED},    {"--sm", 1, FILTERED},
    {"--index", 1, FILTERED},  {"--cache", 1, ~0},
    {"--json", 0, LIST | SHOW}, {"--cubins", 0, EXPORT},
    {"--force", 0, IMPORT},
};

/* "autotune: <fmt with arg> (see autotune cache --help)"; 2. */
static int bad(const char *fmt, const char *arg)
{
    char msg[1024];
    snprintf(msg, sizeof msg, fmt, arg);
    at_cli_say("%s (see autotune cache --help)\n", msg);
    return 2;
}

/* A whole number from 1 to 2^31 - 1, else 0. */
static long number(const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return *s >= '1' && *s <= '9' && !*end && !errno && v <= 0x7fffffff
               ? v
               : 0;
}

/* Applies a flag's value; 2 (said) if it is not one. */
static int set_value(cache_args *a, const char *flag, const char *v)
{
    if (strcmp(flag, "--family") == 0)
        a->f.family = v;
    else if (strcmp(flag, "--type") == 0)
        a->f.type = v;
    else if (strcmp(flag, "--gpu") == 0)
        a->f.gpu = v;
    else if (strcmp(flag, "--cache") == 0)
        a->cache = v;
    else if (strcmp(flag, "--sm") == 0) {
        a->f.sm = strncmp(v, "sm_", 3) == 0 ? at_parse_arch(v)
                                            : (int)number(v);
        if (a->f.sm <= 0 || a->f.sm > 999)
            return bad("--sm needs an architecture, 90 or sm_90, "
                                "got '%s'", v);
    } else if ((a->f.index = (size_t)number(v)) == 0)
        return bad("--index needs a whole number from 1, as "
                            "`autotune cache list` numbers entries, got '%s'",
                            v);
    return 0;
}

static int positional(cache_args *a, const char *arg)
{
    if ((a->sub & (EXPORT | IMPORT)) && !a->file) {
        a->file = arg;
        return 0;
    }
    if ((a->sub & (SHOW | REMOVE)) && !a->f.index && number(arg)) {
        a->f.index = (size_t)number(arg);
        return 0;
    }
    char msg[256];
    snprintf(msg, sizeof msg, "cache %s: unexpected argument '%%s'",
             a->name);
    return bad(msg, arg);
}

static int parse(int argc, char **argv, cache_args *a)
{
    memset(a, 0, sizeof *a);
    a->name = argv[2];
    for (size_t i = 0; i < sizeof subs / sizeof *subs; ++i)
        if (strcmp(argv[2], subs[i].name) == 0)
            a->sub = subs[i].bit;
    if (!a->sub)
        return bad("unknown cache command '%s' (list, show, export, "
                            "import, remove, clear)", argv[2]);
    for (int i = 3; i < argc; ++i) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0 || !arg[2]) {
            if (positional(a, arg))
                return 2;
            continue;
        }
        const struct flag *fl = NULL;
        for (size_t k = 0; k < sizeof flags / sizeof *flags; ++k)
            if (strcmp(arg, flags[k].flag) == 0)
                fl = &flags[k];
        if (!fl || !(fl->subs & a->sub)) {
            char msg[256];
            snprintf(msg, sizeof msg, "cache %s does not take '%%s'",
                     a->name);
            return bad(msg, arg);
        }
        if (fl->value && i + 1 >= argc)
            return bad("%s needs a value", arg);
        if (!fl->value) {
            a->json |= strcmp(arg, "--json") == 0;
            a->cubins |= strcmp(arg, "--cubins") == 0;
            a->force |= strcmp(arg, "--force") == 0;
        } else if (set_value(a, arg, argv[++i]))
            return 2;
    }
    if ((a->sub & (EXPORT | IMPORT)) && !a->file)
        return bad("cache %s needs a FILE ('-': standard "
                            "stream)", a->name);
    return 0;
}

/* The cache, opened; *c stays NULL, and that is no error, when the file
 * does not exist and the command only reads or removes (nothing is
 * made for it). 1 (said) on failure. */
static int open_cache(const cache_args *a, char *path, size_t n,
                      at_cache **c)
{
    at_err e = {0};
    *c = NULL;
    if (a->cache)
        snprintf(path, n, "%s", a->cache);
    else if (at_cache_default_path(path, n, &e)) {
        at_cli_fail(&e);
        return 1;
    }
    if (a->sub == IMPORT || (!at_cache_is_store(path) &&
                             access(path, F_OK) != 0 && errno == ENOENT))
        return 0;
    if (at_cache_open(c, path, &e)) {
        at_cli_fail(&e);
        return 1;
    }
    return 0;
}

/* The key with the texts the cache does not check on reading (family,
 * type, hashes) made printable: a terminal never gets them raw. */
static void printable_key(const at_key *in, at_key *k)
{
    *k = *in;
    at_text_printable(in->family, k->family, sizeof k->family, 0);
    at_text_printable(in->type, k->type, sizeof k->type, 0);
    at_text_printable(in->template_hash, k->template_hash,
                      sizeof k->template_hash, 0);
    at_text_printable(in->space_hash, k->space_hash, sizeof k->space_hash,
                      0);
}

static void list_line(size_t pos, const at_entry *en)
{
    at_key key, *k = &key;
    printable_key(&en->key, k);
    printf("%3zu  %-10s %-5s sm_%-4d %-10s %8.1f %5.1f%%  %-20s  %s  %s  "
           "%s\n", pos, k->family, k->type, k->cc,
           at_effort_name(en->effort), en->gbps, 100 * en->frac_copy,
           en->created, k->gpu, en->point, k->problem);
}

static void show_entry(size_t pos, const at_entry *en)
{
    at_key key, *k = &key;
    printable_key(&en->key, k);
    char hash[17], why[200];
    int sm = 0;
    at_cache_entry_hash(en->point, en->params, en->cubin, en->cubin_size,
                        hash);
    if (at_cubin_sm(en->cubin, en->cubin_size, &sm, why, sizeof why) == 0)
        snprintf(why, sizeof why, "sm_%d by its ELF header", sm);
    printf("entry %zu\n  family        %s\n  type          %s\n"
           "  problem       %s\n  gpu           %s\n  sm            %d\n"
           "  sms           %d\n  driver        %d (%s)\n"
           "  nvrtc         %s\n  template hash %s\n  space hash    %s\n",
           pos, k->family, k->type, k->problem, k->gpu, k->cc, k->sms,
           k->driver, k->driver_build, k->nvrtc, k->template_hash,
           k->space_hash);
    printf("  point         %s\n  params        %s\n  effort        %s\n"
           "  median        %.6g ms\n  bandwidth     %.1f GB/s, %.1f%% of "
           "the copy (%.1f GB/s)\n  resources     %d registers, %d B "
           "shared, %d B local\n  tune          %.1f s, %d points, seed "
           "%llu\n  created       %s\n  cubin         %zu bytes, %s, "
           "entry hash %s\n",
           en->point, en->params, at_effort_name(en->effort), en->median_ms,
           en->gbps, 100 * en->frac_copy, en->copy_gbps, en->registers,
           en->shared_bytes, en->local_bytes, en->tune_seconds, en->points,
           (unsigned long long)en->seed, en->created, en->cubin_size, why,
           hash);
}

/* list and show --json: autotune.cache/1. */
static int print_json(const char *path, const at_entry *en,
                      const size_t *pos, size_t n)
{
    json_t *top = at_json_object("autotune.cache/1"), *list = json_array();
    at_json_str(top, "cache", path);
    at_json_int(top, "count", (int64_t)n);
    for (size_t i = 0; i < n; ++i) {
        json_t *o = at_json_object(NULL), *w = at_wisdom_entry(&en[i], 0);
        at_json_int(o, "index", (int64_t)pos[i]);
        if (o && w)
            json_object_update(o, w);
        json_decref(w);
        json_array_append_new(list, o);
    }
    at_json_put(top, "entries", list);
    if (at_json_print(top)) {
        at_cli_say("%s", "writing the list failed\n");
        return 1;
    }
    return 0;
}

static int list_or_show(const cache_args *a, const char *path,
                        const at_entry *en, const size_t *pos, size_t n)
{
    if (a->sub == SHOW && n == 0) { /* with --json too: the same answer */
        at_cli_say("no entry in %s matches (autotune cache list shows "
                   "them)\n", path);
        return 1;
    }
    if (a->json)
        return print_json(path, en, pos, n);
    if (a->sub == LIST)
        printf("%3s  %-10s %-5s %-7s %-10s %8s %6s  %-20s  %s  %s  %s\n",
               "#", "family", "type", "sm", "effort", "GB/s", "copy",
               "created", "gpu", "point", "problem");
    for (size_t i = 0; i < n; ++i) {
        if (a->sub == LIST)
            list_line(pos[i], &en[i]);
        else {
            if (i)
                putchar('\n');
            show_entry(pos[i], &en[i]);
        }
    }
    if (a->sub == LIST)
        printf("%zu entr%s in %s\n", n, n == 1 ? "y" : "ies", path);
    return fflush(stdout) ? 1 : 0;
}

static int remove_or_clear(const cache_args *a, at_cache *c,
                           const char *path, const at_entry *en, size_t n)
{
    at_err e = {0};
    size_t removed = 0, failed = 0;
    int rc = !c ? 0
             : a->sub == CLEAR ? at_cache_clear(c, &removed, &failed, &e)
                               : at_cache_remove(c, en, n, &removed, &e);
    if (rc) {
        at_cli_fail(&e);
        return 1;
    }
    for (size_t i = 0; a->sub == REMOVE && i < n; ++i) {
        at_key k;
        printable_key(&en[i].key, &k);
        printf("removed %s %s %s on %s (sm_%d), %s\n", k.family, k.type,
               k.problem, k.gpu, k.cc, en[i].point);
    }
    if (a->sub == CLEAR)
        printf("removed %zu entr%s and %zu failed variant%s from %s\n",
               removed, removed == 1 ? "y" : "ies", failed,
               failed == 1 ? "" : "s", path);
    else
        printf("removed %zu entr%s from %s\n", removed,
               removed == 1 ? "y" : "ies", path);
    return 0;
}

/* Every command but import, on the entries the filters select. */
static int on_entries(const cache_args *a, at_cache *c, const char *path)
{
    at_entry *en = NULL;
    size_t *pos = NULL, n = 0;
    at_err e = {0};
    if (c && at_cache_select(c, &a->f, &en, &pos, &n, stderr, &e)) {
        at_cli_fail(&e);
        return 1;
    }
    int rc = 0;
    if (a->sub & (LIST | SHOW))
        rc = list_or_show(a, path, en, pos, n);
    else if (a->sub & (REMOVE | CLEAR))
        rc = remove_or_clear(a, c, path, en, n);
    else if (at_wisdom_export(en, n, a->file, a->cubins, &e)) {
        at_cli_fail(&e);
        rc = 1;
    } else
        fprintf(stderr, "autotune: exported %zu entr%s%s to %s\n", n,
                n == 1 ? "y" : "ies",
                !a->cubins ? "" : n == 1 ? " with its cubin"
                                         : " with their cubins",
                strcmp(a->file, "-") ? a->file : "standard output");
    at_cache_entries_free(en, n);
    free(pos);
    return rc;
}

void at_cache_help(FILE *f) { fputs(cache_usage, f); }

/* Exporting onto the cache (or the compiled-variant cache) would leave
 * it a wisdom file: refused before anything is read. */
static int export_onto_cache(const cache_args *a)
{
    char cache[1024], cubins[1024];
    if (!(a->sub & EXPORT) ||
        at_cli_cache_paths(a->cache, cache, cubins, sizeof cache))
        return 0; /* no cache: opening it says so */
    if (at_path_same(a->file, cache) || at_path_same(a->file, cubins))
        return bad("cache export %s: that is the cache itself; export to "
                   "a file of its own", a->file);
    return 0;
}

int at_cmd_cache(int argc, char **argv)
{
    if (argc < 3)
        return bad("%s", "cache needs a command: list, show, export, "
                   "import, remove or clear");
    cache_args a;
    int rc = parse(argc, argv, &a);
    if (!rc)
        rc = export_onto_cache(&a);
    if (rc)
        return rc;
    if (a.sub == REMOVE && !at_cache_filter_set(&a.f))
        return bad("%s", "cache remove needs a filter (--family, "
                            "--type, --gpu, --sm or an index): to remove "
                            "every entry, use clear");
    char path[1024];
    at_cache *c = NULL;
    if (open_cache(&a, path, sizeof path, &c))
        return 1;
    if (a.sub == IMPORT)
        rc = at_wisdom_import(a.file, path, a.force);
    else
        rc = on_entries(&a, c, path);
    at_cache_close(c);
    return rc;
}
