/* libFuzzer: problem text ("rows=8192 cols=..."), as the GPU worker and
 * the API's options read it, for every family and type. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gen/family.h"
#include "gen/problem.h"
#include "gen/types.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    const at_type *t = at_type_at(data[0] % 9);
    for (int f = 0; at_family_at(f) && t; ++f) {
        at_problem p;
        at_err e = {0};
        if (at_problem_begin(&p, at_family_at(f)->name, t->name, &e) == 0 &&
            at_problem_set_text(&p, text, &e) == 0 &&
            at_problem_finish(&p, &e) == 0) {
            char key[512];
            at_problem_key_text(&p, key, sizeof key);
        }
    }
    free(text);
    return 0;
}
