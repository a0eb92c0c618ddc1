#include "dl.h"

#include <dlfcn.h>
#include <link.h>
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

int at_dl_path(void *lib, char *buf, size_t n)
{
    struct link_map *lm = NULL;
    if (dlinfo(lib, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !lm->l_name ||
        !lm->l_name[0])
        return -1;
    return snprintf(buf, n, "%s", lm->l_name) < (int)n ? 0 : -1;
}
