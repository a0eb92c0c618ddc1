/* A record of the tool behind r5.txt: one reduce point emitted as a .cu
 * on the build machine, with AT_MIN_BLOCKS as given (no GPU needed).
 * Build from the repository root:
 *   cc -std=c11 -D_GNU_SOURCE -I. -Iinclude -I/usr/local/cuda/include \
 *     docs/perf/issue36-h200/tools/emit_point.c build/libautotune.a \
 *     /usr/lib/x86_64-linux-gnu/libsqlite3.a /usr/lib/x86_64-linux-gnu/libyaml.a \
 *     /usr/lib/x86_64-linux-gnu/libjansson.a -ldl -lm -lpthread -o emit_point
 * Usage: emit_point TYPE PROBLEM POINT MIN_BLOCKS OUT.cu NAME [REGS] */
#include <stdio.h>
#include <stdlib.h>
#include "gen/emit.h"
#include "gen/problem.h"
#include "gen/space.h"
int main(int argc, char **argv)
{
    /* em TYPE PROBLEM POINT MINBLOCKS OUT NAME */
    at_problem p; at_point pt; at_err e = {0};
    if (argc != 7 && argc != 8) return 2;
    if (at_problem_make(&p, "reduce", argv[1], argv[2], &e) ||
        at_point_parse(p.family, argv[3], &pt, &e)) { fprintf(stderr, "%s\n", e.msg); return 1; }
    p.sms = 132;
    at_provenance pv = {.sm = 90, .why = "test", .command = "em", .min_blocks = atoi(argv[4]),
                        .regs = argc == 8 ? atoi(argv[7]) : 0};
    if (at_emit(argv[5], &p, &pt, argv[6], &pv, &e)) { fprintf(stderr, "%s\n", e.msg); return 1; }
    return 0;
}
