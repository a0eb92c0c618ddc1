#include "family.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "base/hash.h"

/* The families: adding one is a file and a row here. Each is filled
 * (at_family_fill) into a copy of its own when first looked up. */
extern const at_family at_family_transpose;
extern const at_family at_family_reduce;

static const at_family *const defined[] = {
    &at_family_transpose,
    &at_family_reduce,
};
enum { N_FAMILIES = sizeof defined / sizeof defined[0] };
static at_family families_[N_FAMILIES];
static const at_family *families[N_FAMILIES];
static pthread_once_t filled_once = PTHREAD_ONCE_INIT;

static void fill_builtin(void)
{
    for (int i = 0; i < (int)N_FAMILIES; ++i) {
        families_[i] = *defined[i];
        at_family_fill(&families_[i]);
        families[i] = &families_[i];
    }
}

/* Families defined at run time (spec files), after the built-in ones. */
enum { MAX_RUNTIME = 16 };
static const at_family *runtime_families[MAX_RUNTIME];
static int n_runtime;

const at_family *at_family_at(int i)
{
    pthread_once(&filled_once, fill_builtin);
    if (i >= 0 && i < (int)N_FAMILIES)
        return families[i];
    i -= (int)N_FAMILIES;
    return i >= 0 && i < n_runtime ? runtime_families[i] : NULL;
}

const at_family *at_family_find(const char *name)
{
    const at_family *f;
    for (int i = 0; name && (f = at_family_at(i)); ++i)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

int at_family_register(const at_family *f, at_err *e)
{
    const at_family *old = at_family_find(f->name);
    if (old == f)
        return 0;
    if (old)
        return at_fail(e, AUTOTUNE_EINVALID, "a family named '%s' exists "
                       "already", f->name);
    if (n_runtime == MAX_RUNTIME)
        return at_fail(e, AUTOTUNE_EINVALID, "at most %d families defined "
                       "at run time", MAX_RUNTIME);
    runtime_families[n_runtime++] = f;
    return 0;
}

void at_family_list(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    const at_family *f;
    for (int i = 0; (f = at_family_at(i)) && used < n; ++i)
        used += (size_t)snprintf(buf + used, n - used, "%s%s",
                                 i ? ", " : "", f->name);
}

void at_args_put(at_args *a, const void *v, size_t n)
{
    memcpy(a->store[a->n], v, n);
    a->ptr[a->n] = a->store[a->n];
    a->bytes[a->n] = (unsigned char)n;
    a->n++;
}

int at_family_takes(const at_family *f, const at_type *t)
{
    if (!f->types)
        return t != at_type_none();
    size_t n = strlen(t->name);
    for (const char *s = f->types; (s = strstr(s, t->name)); s += n)
        if ((s == f->types || s[-1] == ' ') && (s[n] == ' ' || !s[n]))
            return 1;
    return 0;
}

int at_field_index(const at_family *f, const char *name)
{
    for (int i = 0; i < f->n_fields; ++i)
        if (strcmp(f->fields[i].name, name) == 0)
            return i;
    return -1;
}

uint64_t at_family_hash(const at_family *f)
{
    uint64_t h = at_hash(AT_HASH_INIT, f->template_src,
                         strlen(f->template_src));
    return *f->meaning ? at_hash(h, f->meaning, strlen(f->meaning) + 1) : h;
}

int at_family_verifies(const at_family *f)
{
    return (f->caps & (AT_CAP_CPU_REFERENCE | AT_CAP_DEVICE_REFERENCE)) != 0;
}
