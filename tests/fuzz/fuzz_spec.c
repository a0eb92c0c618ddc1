/* libFuzzer: spec files (gen/spec.h) as YAML or JSON text; a spec that
 * loads has its space enumerated (small spaces only) and freed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gen/spec.h"
#include "gen/spec_space.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    at_spec s;
    at_err e = {0};
    /* Sources are read relative to the vector_add example's folder. */
    if (at_spec_load_text(text, "fuzz.yaml", "examples/kernels/vector_add",
                          &s, &e) == 0) {
        size_t total = 1;
        for (int i = 0; i < s.n_params; ++i)
            total *= (size_t)s.params[i].n;
        at_limits l;
        at_spec_space sp;
        if (total <= 4096 && at_limits_for_arch(90, &l) &&
            at_spec_space_make(&s, s.size, &l, &sp, &e) == 0)
            at_spec_space_free(&sp);
        at_spec_free(&s);
    } else if (!e.msg[0]) {
        abort(); /* an error always says what */
    }
    free(text);
    return 0;
}
