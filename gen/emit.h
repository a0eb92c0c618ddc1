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
    int unchecked;       /* 1: never run on this problem (no GPU here) */
    /* The tuned build's blocks per SM and registers a thread (0: not
     * known): the emitted kernel asks nvcc for those blocks
     * (AT_MIN_BLOCKS, where the template takes it). */
    int min_blocks, regs;
    /* The tuned build's cubin (NULL: none; borrowed, not freed) and its
     * kernel's symbol there (a C++ kernel's mangled one): a one-problem
     * file carries it and runs it on sm devices (gen/emit_tuned.c). */
    const void *cubin;
    size_t cubin_size;
    char cubin_kernel[256];
    int cubin_sm; /* its architecture: 90 */
} at_provenance;

/* in made safe for a C comment (n bytes, terminated): printable ASCII,
 * comment delimiters broken, other bytes as \xNN. */
void at_emit_comment_text(const char *in, char *out, size_t n);

/* One line of a header comment: " * label    text", text made safe. */
void at_emit_line(FILE *f, const char *label, const char *text);

/* A header's first lines: GENERATED, the command (NULL: "(API)"), when. */
void at_emit_header_start(FILE *f, const char *command);
/* The header's lines on how p's point was obtained (pv): how (tuned,
 * cached, the default point, reused from pv->from), then where and when
 * it was tuned and what it measured (a reused point: nothing here), or
 * NOT TUNED and why; and NOT VERIFIED for a family without a reference
 * or a point never run on this problem. For at_emit and
 * at_emit_multi (gen/emit_multi.h). */
void at_emit_provenance(FILE *f, const at_problem *p,
                        const at_provenance *pv);

/* A function definition in a launcher's text as a family's emit_launcher
 * wrote it (at_emit_launcher_read): offsets into the text. */
enum { AT_EMIT_MAX_PARAMS = 24 };
typedef struct at_emit_fn {
    size_t start;    /* its first line's start */
    size_t name_at, name_end, body_at, end; /* the name; '{'; past '}' */
    int extern_c;    /* declared extern "C" (else a helper: static) */
    int specific;    /* depends on the point: names an AT_ macro, the
                      * kernel NAME_kernel, or such a helper (a call of
                      * an extern "C" one does not count) */
    char ret[64];    /* the return type: "cudaError_t" */
    char param[AT_EMIT_MAX_PARAMS][64]; /* the parameters' names */
    int n_params;
} at_emit_fn;

/* The family's launcher for a problem and point, written under a name
 * and read back: its text and its top-level functions named name... */
enum { AT_EMIT_MAX_FNS = 16 };
typedef struct at_emit_launcher {
    char *text; /* malloc'd */
    at_emit_fn fns[AT_EMIT_MAX_FNS];
    int n;
} at_emit_launcher;
/* 0, or AUTOTUNE_ENOMEM (said in e). Free l->text after. */
int at_emit_launcher_read(at_emit_launcher *l, const at_problem *p,
                          const at_point *pt, const char *name, at_err *e);

/* Whether launchers a (written under the name an) and b (bn) have the
 * same functions: names after an and bn, linkage, return types and
 * parameters' names. */
int at_emit_launcher_alike(const at_emit_launcher *a, const char *an,
                           const at_emit_launcher *b, const char *bn);
/* C of a host function, static cudaError_t FN(int *v): a value of the
 * current device (what: its description), asked once per device and kept
 * (devices 0 to 63; needs <atomic>). ask: statements that set err and *v
 * from dev, run where err is cudaSuccess. */
void at_emit_device_value_c(FILE *f, const char *fn, const char *what,
                            const char *ask);
/* The same, NAME_device_sm: the architecture (90 for 9.0). */
void at_emit_device_sm_c(FILE *f, const char *name);

/* The registers to hold nvcc to with __maxnreg__ (AT_MAX_REGS) beside
 * __launch_bounds__(threads, min_blocks): the tuned build's regs where
 * those blocks would leave nvcc more than it allocated, else 0 (the
 * bound alone holds nvcc to them; so do unknown registers, regs 0, and
 * min_blocks under 2). The bound alone where it suffices: held to the
 * same 32 registers, nvcc spilled 24 bytes under __maxnreg__ and none
 * under __launch_bounds__ (i8 19194x22735's H200 winner, 512 threads, 4
 * blocks: 70.0% of the copy against the tune's 79.7%). */
int at_emit_max_regs(const at_problem *p, const at_point *pt,
                     int min_blocks, int regs);
/* What the header's occupancy line says the bounds of a variant emitted
 * with min_blocks (2 or more) and regs (0: not known) do, in both the
 * one-problem and the many-problem file. */
const char *at_emit_bounds_text(const at_problem *p, const at_point *pt,
                                int min_blocks, int regs);

/* The variant on f: the point's macros (with paths; AT_MIN_BLOCKS where
 * min_blocks is 2 or more: the blocks an SM asked of nvcc, and with it
 * AT_MAX_REGS where at_emit_max_regs says: the tuned build's registers),
 * AT_KERNEL
 * name_kernel, the template and the family's launcher under name. Or,
 * given the launcher's text (at_emit_launcher_read), so that another
 * variant may follow: a comment naming the point, all that inside
 * namespace name_ns (unless the family's source keeps its names:
 * program_points 1), then "#undef" of every macro it defined. */
void at_emit_variant(FILE *f, const at_problem *p, const at_point *pt,
                     unsigned paths, int min_blocks, int regs,
                     const char *name, const char *launcher);

/* The tuned build (gen/emit_tuned.c). After the file's #include: the
 * declaration of at_tuned_kernel and at_launch_tuned(k, grid, block,
 * smem, stream, args...), through which the families' launchers launch
 * NAME_kernel. */
void at_emit_launch_helpers(FILE *f);
/* Whether pv's cubin goes into the file (a cubin, its kernel's name a
 * symbol's, its architecture). */
int at_emit_embeds_cubin(const at_provenance *pv);
/* The header's line on it ("runs:"), where it goes in. */
void at_emit_tuned_line(FILE *f, const at_provenance *pv);
/* At the file's end: at_tuned_kernel, with the cubin where
 * at_emit_embeds_cubin(pv), and NAME_runs_tuned_cubin() (name NULL:
 * none, a many-problem file). */
void at_emit_tuned_build(FILE *f, const at_provenance *pv,
                         const char *name);

/* Writes to path ("-": stdout) through base/safefile.h, so an existing
 * file is replaced whole or not at all. name: the launcher's
 * name (gen/ident.h: refused unless a usable identifier); the kernel is
 * name_kernel. Every text in the provenance header is escaped. */
int at_emit(const char *path, const at_problem *p, const at_point *pt,
            const char *name, const at_provenance *pv, at_err *e);

#endif
