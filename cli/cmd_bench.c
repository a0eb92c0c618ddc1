/* `autotune bench FAMILY`: the options into the benchmark's arguments. */
#include <stdio.h>

#include "bench.h"
#include "commands.h"

int at_cmd_bench_opts(const opts *o, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    at_problem one;
    if (o->shape_given && at_opts_problem(o, &one))
        return 2;
    char csv[256];
    snprintf(csv, sizeof csv, "bench_%s.csv", o->family);
    at_bench_args a = {.family = o->family,
                       .one = o->shape_given ? &one : NULL,
                       .csv = o->csv ? o->csv : csv, .resume = o->resume,
                       .device = (int)o->device, .quiet = o->quiet,
                       .json = o->json, .sweep = (int)o->sweep,
                       .list = o->list};
    at_opts_tune(o, &a.tune);
    return at_cmd_bench(&a);
}
