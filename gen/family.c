#include "family.h"

#include <stdio.h>
#include <string.h>

/* The families: adding one is a file and a row here. */
extern const at_family at_family_transpose;
extern const at_family at_family_reduce;

static const at_family *const families[] = {
    &at_family_transpose,
    &at_family_reduce,
};
enum { N_FAMILIES = sizeof families / sizeof families[0] };

const at_family *at_family_find(const char *name)
{
    for (size_t i = 0; name && i < N_FAMILIES; ++i)
        if (strcmp(families[i]->name, name) == 0)
            return families[i];
    return NULL;
}

const at_family *at_family_at(int i)
{
    return i >= 0 && i < N_FAMILIES ? families[i] : NULL;
}

void at_family_list(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < N_FAMILIES && used < n; ++i)
        used += (size_t)snprintf(buf + used, n - used, "%s%s",
                                 i ? ", " : "", families[i]->name);
}

void at_args_put(at_args *a, const void *v, size_t n)
{
    memcpy(a->store[a->n], v, n);
    a->ptr[a->n] = a->store[a->n];
    a->n++;
}

int at_family_takes(const at_family *f, const at_type *t)
{
    if (!f->types)
        return 1;
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
