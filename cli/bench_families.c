#include "bench_families.h"

#include <string.h>

/* One row per family that has a benchmark. */
extern const at_bench_family at_bench_transpose;
extern const at_bench_family at_bench_reduce;

static const at_bench_family *const benches[] = {
    &at_bench_transpose,
    &at_bench_reduce,
};

const at_bench_family *at_bench_family_find(const char *family)
{
    for (size_t i = 0; family && i < sizeof benches / sizeof *benches; ++i)
        if (strcmp(benches[i]->family, family) == 0)
            return benches[i];
    return NULL;
}
