/* The API's families of the user's own kernels (issue 15): a spec loaded
 * from a file or from memory, or described in C, and a launch with the
 * spec's arguments. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime/api/api.h"
#include "spec/spec.h"

/* A NULL argument: said (ctx may be NULL: autotune_last_error(NULL)). */
static int null_arg(autotune_ctx *c, const char *call)
{
    at_err e = {0};
    at_fail(&e, AUTOTUNE_EINVALID, "%s: a NULL argument", call);
    return at_ctx_fail(c, &e);
}

int autotune_family_load(autotune_ctx *c, const char *path,
                         const char **family)
{
    if (!path || !family)
        return null_arg(c, "autotune_family_load");
    at_err e = {0};
    const at_family *f;
    at_ctx_clear(c);
    if (at_spec_family_load(path, &f, &e))
        return at_ctx_fail(c, &e);
    *family = f->name;
    return 0;
}

int autotune_family_load_text(autotune_ctx *c, const char *spec,
                              const char *source, const char **family)
{
    if (!spec || !source || !family)
        return null_arg(c, "autotune_family_load_text");
    at_err e = {0};
    const at_family *f;
    at_ctx_clear(c);
    if (at_spec_family_load_mem(spec, "(autotune_family_load_text)", NULL,
                                source, &f, &e))
        return at_ctx_fail(c, &e);
    *family = f->name;
    return 0;
}

int autotune_family_define(autotune_ctx *c, const autotune_family_desc *d,
                           const char **family)
{
    if (!d || !d->source || !family)
        return null_arg(c, "autotune_family_define");
    at_err e = {0};
    const at_family *f;
    at_ctx_clear(c);
    char *text = at_spec_text_of(d, &e);
    int rc = text ? at_spec_family_load_mem(text, "(autotune_family_desc)",
                                            NULL, d->source, &f, &e)
                  : e.code;
    free(text);
    if (rc)
        return at_ctx_fail(c, &e);
    *family = f->name;
    return 0;
}

