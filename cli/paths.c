/* A command's outputs never land on its inputs (options.h): -o, --record,
 * --csv and --data's files are compared with the spec, the files it
 * names, the cache, the compiled-variant cache and a replayed record,
 * and with each other, before anything runs. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/safefile.h"
#include "base/text.h"
#include "errors.h"
#include "spec/spec.h"
#include "options.h"
#include "runtime/store/store.h"

enum { MAX_PATHS = 16 + AT_SPEC_MAX_ARGS };

typedef struct {
    char path[MAX_PATHS][PATH_MAX];
    const char *what[MAX_PATHS];
    int n;
} path_list;

static void add(path_list *l, const char *what, const char *dir,
                const char *name)
{
    if (!name || !name[0] || l->n == MAX_PATHS)
        return;
    if (dir)
        snprintf(l->path[l->n], PATH_MAX, "%s/%s", dir, name);
    else
        snprintf(l->path[l->n], PATH_MAX, "%s", name);
    l->what[l->n++] = what;
}

/* The files a spec reads: its sources and its data files. */
static void spec_inputs(const opts *o, path_list *in)
{
    const at_spec *s = o->family ? at_spec_of(at_family_find(o->family))
                                 : NULL;
    add(in, "the spec", NULL, o->spec);
    if (!s || !s->dir)
        return;
    add(in, "the kernel's source", s->dir, s->source_file);
    add(in, "the reference's source", s->dir, s->ref_source_file);
    add(in, "the init kernel's source", s->dir, s->init_source_file);
    for (int i = 0; i < s->n_args; ++i)
        add(in, "an argument's data file", s->dir, s->args[i].file);
}

int at_cli_cache_paths(const char *given, char *cache, char *cubins,
                       size_t n)
{
    at_err e = {0};
    cache[0] = cubins[0] = '\0';
    if (given)
        snprintf(cache, n, "%s", given);
    else if (at_cache_path_named(cache, n, &e))
        return -1;
    if (at_cubins_default_path(cache, cubins, n, &e))
        cubins[0] = '\0'; /* the same file: said when it is opened */
    return 0;
}

/* An output on an input (or on another output): said, usage error. */
static int clash(const char *flag, const char *out, const char *what,
                 const char *other)
{
    char shown[256], other_shown[256];
    at_text_printable(out, shown, sizeof shown, 0);
    at_text_printable(other, other_shown, sizeof other_shown, 0);
    at_cli_say("%s %s is %s (%s): not written, so that nothing is "
               "overwritten; give it a file of its own\n", flag, shown, what,
               other_shown);
    return 2;
}

int at_opts_check_paths(const opts *o)
{
    static path_list in, out; /* 2 x 28 paths of PATH_MAX: not the stack */
    char cache[PATH_MAX], cubins[PATH_MAX];
    in.n = out.n = 0;
    spec_inputs(o, &in);
    add(&in, "the record replayed", NULL, o->file);
    if (at_cli_cache_paths(NULL, cache, cubins, sizeof cache) == 0) {
        add(&in, "the cache", NULL, cache);
        add(&in, "the compiled-variant cache", NULL, cubins);
    }
    add(&out, "-o", NULL, o->out);
    add(&out, "--record", NULL, o->record);
    add(&out, "--csv", NULL, o->csv);
    static const char *const data_files[] = {"in.bin", "ref.bin",
                                             "manifest.txt"};
    for (int k = 0; o->data && k < 3; ++k)
        add(&out, "--data", o->data, data_files[k]);
    for (int i = 0; i < out.n; ++i) {
        struct stat st;
        if (stat(out.path[i], &st) == 0 && S_ISDIR(st.st_mode))
            return at_bad_usage("an output is a folder (%s): name a file",
                                out.path[i]);
        for (int j = 0; j < in.n; ++j)
            if (at_path_same(out.path[i], in.path[j]))
                return clash(out.what[i], out.path[i], in.what[j],
                             in.path[j]);
        for (int j = 0; j < i; ++j)
            if (at_path_same(out.path[i], out.path[j]))
                return at_bad_usage("two outputs in one file (%s): give "
                                    "each a file of its own", out.path[i]);
    }
    return 0;
}
