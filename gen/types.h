/* Element types a family can be asked for. Kernels move bits, so a type is
 * its name, its size and the C type a user's pointers have (with the
 * header that declares it, for emitted files). */
#ifndef AT_TYPES_H
#define AT_TYPES_H

typedef struct at_type {
    const char *name;   /* "f32" */
    int bytes;          /* 4 */
    const char *ctype;  /* "float" */
    const char *header; /* "cuda_fp16.h", or NULL: cuda_runtime.h has it */
    int fp;             /* bytes of its floating-point lanes; 0: integer */
} at_type;

const at_type *at_type_find(const char *name); /* NULL if unknown */
/* The i-th type of the table, NULL past the end. */
const at_type *at_type_at(int i);
/* "i8, u8, f16, ...": for messages and help. */
const char *at_type_list(void);

#endif
