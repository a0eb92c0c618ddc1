/* Element types a family can be asked for. Kernels move bits, so a type is
 * its name, its size and the C type a user's pointers have (with the
 * header that declares it, for emitted files).
 *
 * Two tables: the element types of problems (at_type_find: what transpose
 * and reduce take), and beside them the further types a user's kernel may
 * take as an argument (at_arg_type_find: CUDA's vector and complex types,
 * 16- and 64-bit integers), found by our short name or by CUDA's own
 * ("float2", "cuFloatComplex", "__half2"). */
#ifndef AT_TYPES_H
#define AT_TYPES_H

typedef struct at_type {
    const char *name;   /* "f32" */
    int bytes;          /* 4 */
    const char *ctype;  /* "float" */
    const char *header; /* "cuda_fp16.h", or NULL: cuda_runtime.h has it */
    int fp;             /* bytes of its floating-point lanes; 0: integer */
    int lane;           /* bytes of one lane (a float2's 4) */
    int is_unsigned;    /* integer lanes without a sign */
} at_type;

const at_type *at_type_find(const char *name); /* NULL if unknown */
/* "none": the type of a problem that has none (a spec's, unless it names
 * one); at_type_find finds it by that name, no table lists it, and only
 * a family whose types list it takes it. Messages and names leave it
 * out. */
const at_type *at_type_none(void);
/* The i-th type of the table, NULL past the end. */
const at_type *at_type_at(int i);
/* "i8, u8, f16, ...": for messages and help. */
const char *at_type_list(void);

/* A kernel argument's type: any of the table above or of the argument
 * types, by our name or its C type's; NULL if unknown. */
const at_type *at_arg_type_find(const char *name);
/* The i-th argument type (the element types first), NULL past the end. */
const at_type *at_arg_type_at(int i);
/* Every argument type's two names, "f32 (float), f32x2 (float2), ...",
 * whole: for messages, help and docs/SPEC.md. */
const char *at_arg_type_list(void);

#endif
