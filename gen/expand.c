#include "expand.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *at_expand(const at_problem *p, const at_point *pt,
                const char *kernel_name, at_err *e)
{
    const at_family *f = p->family;
    char name[128], defs[1024];
    f->point_name(pt, name, sizeof name);
    f->defines(p, pt, defs, sizeof defs);
    const char *fmt = "/* %s %s: %s */\n%s#define AT_KERNEL %s\n"
                      "#line 1 \"%s\"\n%s";
    int n = snprintf(NULL, 0, fmt, f->name, p->type->name, name, defs,
                     kernel_name, f->template_path, f->template_src);
    char *src = malloc((size_t)n + 1);
    if (!src) {
        at_fail(e, AUTOTUNE_ENOMEM, "expanding %s", name);
        return NULL;
    }
    snprintf(src, (size_t)n + 1, fmt, f->name, p->type->name, name, defs,
             kernel_name, f->template_path, f->template_src);
    return src;
}
