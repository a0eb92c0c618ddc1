/* A record of the tool behind r5.txt: one reduce point expanded and
 * compiled by NVRTC as the tuner compiles it (its options), the cubin
 * written out for cuobjdump. Build as emit_point.c, adding
 * -L/usr/local/cuda/lib64 -lnvrtc.
 * Usage: nvrtc_point TYPE PROBLEM POINT OUT.cubin */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nvrtc.h>
#include "gen/expand.h"
#include "gen/problem.h"
#include "gen/space.h"
int main(int argc, char **argv)
{
    /* nv TYPE PROBLEM POINT OUT.cubin */
    at_problem p; at_point pt; at_err e = {0};
    if (at_problem_make(&p, "reduce", argv[1], argv[2], &e) ||
        at_point_parse(p.family, argv[3], &pt, &e)) { fprintf(stderr, "%s\n", e.msg); return 1; }
    p.sms = 132;
    char *src = at_expand(&p, &pt, "k", NULL, &e);
    nvrtcProgram prog;
    nvrtcCreateProgram(&prog, src, "x.cu", 0, NULL, NULL);
    const char *opts[] = {"--gpu-architecture=sm_90", "--std=c++17"};
    if (nvrtcCompileProgram(prog, 2, opts) != NVRTC_SUCCESS) {
        size_t n; nvrtcGetProgramLogSize(prog, &n); char *l = malloc(n); nvrtcGetProgramLog(prog, l); fprintf(stderr, "%s\n", l); return 1; }
    size_t n; nvrtcGetCUBINSize(prog, &n); char *c = malloc(n); nvrtcGetCUBIN(prog, c);
    FILE *f = fopen(argv[4], "wb"); fwrite(c, 1, n, f); fclose(f);
    return 0;
}
