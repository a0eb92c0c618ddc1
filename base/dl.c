#include "dl.h"

#include <dlfcn.h>
#include <stdio.h>

void *at_dl_open_first(const char *const *candidates, size_t n, char *why,
                       size_t why_n)
{
    size_t used = 0;
    char first[512] = "";
    why[0] = '\0';
    for (size_t i = 0; i < n; ++i) {
        if (!candidates[i])
            continue;
        void *h = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
        if (h)
            return h;
        if (!first[0])
            snprintf(first, sizeof first, "%s", dlerror());
        if (used < why_n)
            used += (size_t)snprintf(why + used, why_n - used, "%s%s",
                                     used ? ", " : "tried ", candidates[i]);
    }
    if (used < why_n)
        snprintf(why + used, why_n - used, "%s%s", used ? ": " : "",
                 first[0] ? first : "no candidate");
    return NULL;
}

void *at_dl_sym(void *lib, const char *name) { return dlsym(lib, name); }
