#include "types.h"

#include <string.h>

/* Every size a transpose moves (1, 2, 4, 8 and 16 bytes), and what a
 * reduction reads. */
static const at_type types[] = {
    {"i8", 1, "signed char", NULL, 0},
    {"u8", 1, "unsigned char", NULL, 0},
    {"f16", 2, "__half", "cuda_fp16.h", 2},
    {"bf16", 2, "__nv_bfloat16", "cuda_bf16.h", 2},
    {"f32", 4, "float", NULL, 4},
    {"f64", 8, "double", NULL, 8},
    {"c64", 8, "cuFloatComplex", "cuComplex.h", 4},
    {"c128", 16, "cuDoubleComplex", "cuComplex.h", 8},
    {"f32x4", 16, "float4", NULL, 4},
    {"i32", 4, "int", NULL, 0},
};
enum { N_TYPES = sizeof types / sizeof types[0] };

const at_type *at_type_find(const char *name)
{
    for (size_t i = 0; name && i < N_TYPES; ++i)
        if (strcmp(types[i].name, name) == 0)
            return &types[i];
    return NULL;
}

const at_type *at_type_at(int i)
{
    return i >= 0 && i < N_TYPES ? &types[i] : NULL;
}

/* Kept equal to the table by test_space. */
const char *at_type_list(void)
{
    return "i8, u8, f16, bf16, f32, f64, c64, c128, f32x4, i32";
}
