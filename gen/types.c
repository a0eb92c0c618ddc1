#include "types.h"

#include <string.h>

static const at_type types[] = {
    {"f32", 4, "float"},
    {"f64", 8, "double"},
};

const at_type *at_type_find(const char *name)
{
    for (size_t i = 0; name && i < sizeof types / sizeof types[0]; ++i)
        if (strcmp(types[i].name, name) == 0)
            return &types[i];
    return NULL;
}

const char *at_type_list(void) { return "f32, f64"; }
