/* One .cu for many problems and architectures (issue 12): a kernel per
 * distinct point, each with its own launcher (NAME_k<i>..., as at_emit
 * writes one), and the family's launchers under NAME, with the signature
 * at_emit gives them, dispatching at run time: the kernel set of the
 * current device's architecture (else the nearest lower one in the file),
 * then the kernel of the nearest tuned problem by gen/distance.h's
 * distance, written out in C (emit_multi.c). Builds with nvcc, one
 * -gencode per architecture. */
#ifndef AT_EMIT_MULTI_H
#define AT_EMIT_MULTI_H

#include "emit.h"

typedef struct at_multi_entry {
    at_problem p;     /* finished */
    at_point pt;      /* its point for sm */
    int sm;           /* the architecture it is for: 90 */
    at_provenance pv; /* how pt was obtained (pv.command unused) */
} at_multi_entry;

/* Which kernel of the file each entry uses (kernel[i] for en[i], numbered
 * as the file numbers them: one per distinct point, in the order of the
 * architectures, lowest first, then of the entries); returns how many
 * kernels. An entry repeating an earlier one's architecture and problem
 * takes the earlier one's kernel. */
int at_multi_kernels(const at_multi_entry *en, int n, int *kernel);

/* Writes the file to path ("-": stdout) through base/safefile.h. name:
 * the launchers' name (gen/ident.h); command: the command line, for the
 * header (NULL: "(API)"). The entries must be of one family and type with
 * the same choice fields (reduce's op...); AUTOTUNE_EINVALID, said in e,
 * if not, if there are none, if they need several kernels where the
 * family's points cannot share a translation unit (program_points 1: a
 * spec's), or where a launcher of the family does not take a field that
 * tells the problems of its kernels apart. The file also exports
 * NAME_pick(<the family's number fields, in its table's order>, sm): the
 * kernel a launch would use on an sm device (sm 0: the current device),
 * -1 below every architecture of the file. */
int at_emit_multi(const char *path, const at_multi_entry *en, int n,
                  const char *name, const char *command, at_err *e);

#endif
