#include "types.h"

#include <string.h>

/* Every size a transpose moves (1, 2, 4, 8 and 16 bytes), and what a
 * reduction reads; then the further types a user's kernel may take
 * (spec/spec.h): CUDA's vector and complex types and other integers. */
static const at_type types[] = {
    {"i8", 1, "signed char", NULL, 0, 1, 0},
    {"u8", 1, "unsigned char", NULL, 0, 1, 1},
    {"f16", 2, "__half", "cuda_fp16.h", 2, 2, 0},
    {"bf16", 2, "__nv_bfloat16", "cuda_bf16.h", 2, 2, 0},
    {"f32", 4, "float", NULL, 4, 4, 0},
    {"f64", 8, "double", NULL, 8, 8, 0},
    {"c64", 8, "cuFloatComplex", "cuComplex.h", 4, 4, 0},
    {"c128", 16, "cuDoubleComplex", "cuComplex.h", 8, 8, 0},
    {"f32x4", 16, "float4", NULL, 4, 4, 0},
    {"i32", 4, "int", NULL, 0, 4, 0},
    /* Arguments only, from here. */
    {"u32", 4, "unsigned int", NULL, 0, 4, 1},
    {"i16", 2, "short", NULL, 0, 2, 0},
    {"u16", 2, "unsigned short", NULL, 0, 2, 1},
    {"i64", 8, "long long", NULL, 0, 8, 0},
    {"u64", 8, "unsigned long long", NULL, 0, 8, 1},
    {"f16x2", 4, "__half2", "cuda_fp16.h", 2, 2, 0},
    {"bf16x2", 4, "__nv_bfloat162", "cuda_bf16.h", 2, 2, 0},
    {"f32x2", 8, "float2", NULL, 4, 4, 0},
    {"f64x2", 16, "double2", NULL, 8, 8, 0},
    {"i32x2", 8, "int2", NULL, 0, 4, 0},
    {"i32x4", 16, "int4", NULL, 0, 4, 0},
    {"u32x2", 8, "uint2", NULL, 0, 4, 1},
    {"u32x4", 16, "uint4", NULL, 0, 4, 1},
    {"i8x4", 4, "char4", NULL, 0, 1, 0},
    {"u8x4", 4, "uchar4", NULL, 0, 1, 1},
};
enum { N_TYPES = 10, N_ARG_TYPES = sizeof types / sizeof types[0] };

/* CUDA's other spellings of the same types. */
static const struct {
    const char *alias, *name;
} aliases[] = {
    {"half", "f16"},   {"half2", "f16x2"}, {"nv_bfloat16", "bf16"},
    {"nv_bfloat162", "bf16x2"}, {"unsigned", "u32"}, {"uint", "u32"},
    {"char", "i8"},    {"int8_t", "i8"},   {"uint8_t", "u8"},
    {"int16_t", "i16"}, {"uint16_t", "u16"}, {"int32_t", "i32"},
    {"uint32_t", "u32"}, {"int64_t", "i64"}, {"uint64_t", "u64"},
};

/* A problem without an element type (a spec that names none). */
static const at_type none = {"none", 1, "unsigned char", NULL, 0, 1, 1};

const at_type *at_type_none(void) { return &none; }

const at_type *at_type_find(const char *name)
{
    for (size_t i = 0; name && i < N_TYPES; ++i)
        if (strcmp(types[i].name, name) == 0)
            return &types[i];
    return name && strcmp(name, none.name) == 0 ? &none : NULL;
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

const at_type *at_arg_type_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < N_ARG_TYPES; ++i)
        if (strcmp(types[i].name, name) == 0 ||
            strcmp(types[i].ctype, name) == 0)
            return &types[i];
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; ++i)
        if (strcmp(aliases[i].alias, name) == 0)
            return at_arg_type_find(aliases[i].name);
    return NULL;
}

const at_type *at_arg_type_at(int i)
{
    return i >= 0 && i < (int)N_ARG_TYPES ? &types[i] : NULL;
}

/* Kept equal to the table by test_space. */
const char *at_arg_type_list(void)
{
    return "i8 (signed char), u8 (unsigned char), f16 (__half), "
           "bf16 (__nv_bfloat16), f32 (float), f64 (double), "
           "c64 (cuFloatComplex), c128 (cuDoubleComplex), f32x4 (float4), "
           "i32 (int), u32 (unsigned int), i16 (short), "
           "u16 (unsigned short), i64 (long long), "
           "u64 (unsigned long long), f16x2 (__half2), "
           "bf16x2 (__nv_bfloat162), f32x2 (float2), f64x2 (double2), "
           "i32x2 (int2), i32x4 (int4), u32x2 (uint2), u32x4 (uint4), "
           "i8x4 (char4), u8x4 (uchar4)";
}
