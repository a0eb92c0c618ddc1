/* Emission of a standalone .cu: provenance header, the template specialised
 * at a point, and an extern "C" host launcher. Builds with nvcc alone. */
#ifndef AT_EMIT_H
#define AT_EMIT_H

#include "autotune.h"
#include "family.h"

typedef struct at_provenance {
    int tuned;           /* 0: default point, not tuned */
    int how;             /* AUTOTUNE_HOW_* */
    const char *from;    /* AUTOTUNE_HOW_REUSED: the problem tuned */
    const char *why;     /* when not tuned: why */
    const char *gpu;     /* GPU it was tuned on */
    int sm, sms, driver; /* driver: 13000 */
    const char *driver_build; /* "580.159.04" */
    const char *nvrtc;
    const char *tuned_at; /* UTC date of the tuning */
    double median_ms, gbps, copy_gbps, frac_copy;
    const char *command; /* the command line that made it */
} at_provenance;

/* in made safe for a C comment (n bytes, terminated): printable ASCII,
 * comment delimiters broken, other bytes as \xNN. */
void at_emit_comment_text(const char *in, char *out, size_t n);

/* Writes to path ("-": stdout) through base/safefile.h, so an existing
 * file is replaced whole or not at all. name: the launcher's
 * name (gen/ident.h: refused unless a usable identifier); the kernel is
 * name_kernel. Every text in the provenance header is escaped. */
int at_emit(const char *path, const at_problem *p, const at_point *pt,
            const char *name, const at_provenance *pv, at_err *e);

#endif
