#include "family.h"

#include <string.h>

extern const at_family at_family_transpose;

static const at_family *const families[] = {
    &at_family_transpose,
};

const at_family *at_family_find(const char *name)
{
    for (size_t i = 0; name && i < sizeof families / sizeof families[0]; ++i)
        if (strcmp(families[i]->name, name) == 0)
            return families[i];
    return NULL;
}

const char *at_family_list(void) { return "transpose"; }
