/* A record of the tool behind r5.txt: one reduce point emitted as a .cu
 * on the build machine, with AT_MIN_BLOCKS as given (no GPU needed).
 * Build from the repository root:
 *   cc -std=c11 -D_GNU_SOURCE -I. -Iinclude -I/usr/local/cuda/include \
 *     docs/perf/issue36-h200/tools/emit_point.c build/libautotune.a \
 *     /usr/lib/x86_64-linux-gnu/libsqlite3.a /usr/lib/x86_64-linux-gnu/libyaml.a \
 *     /usr/lib/x86_64-linux-gnu/libjansson.a -ldl -lm -lpthread -o emit_point
 * Usage: [AT_FAMILY=transpose] emit_point TYPE PROBLEM POINT MIN_BLOCKS OUT.cu NAME [REGS]
 * (r10, r11 and r14's build.sh call it as /tmp/emit_any, built with
 * -o /tmp/emit_any; a transpose PROBLEM as "rows=R cols=C ld_in=A ld_out=B",
 * a POINT as "tile_x=.. tile_y=.. block_x=.. ...", every axis named) */
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
    const char *fam = getenv("AT_FAMILY"); /* transpose for r10, r11, r14 */
    if (at_problem_make(&p, fam ? fam : "reduce", argv[1], argv[2], &e) ||
        at_point_parse(p.family, argv[3], &pt, &e)) { fprintf(stderr, "%s\n", e.msg); return 1; }
    p.sms = 132;
    at_provenance pv = {.sm = 90, .why = "test", .command = "em", .min_blocks = atoi(argv[4]),
                        .regs = argc == 8 ? atoi(argv[7]) : 0};
    if (at_emit(argv[5], &p, &pt, argv[6], &pv, &e)) { fprintf(stderr, "%s\n", e.msg); return 1; }
    return 0;
}
