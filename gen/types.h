/* Element types a family can be asked for. Kernels move bits, so a type is
 * its name, its size and the C type a user's pointers have. */
#ifndef AT_TYPES_H
#define AT_TYPES_H

typedef struct at_type {
    const char *name;  /* "f32" */
    int bytes;         /* 4 */
    const char *ctype; /* "float" */
} at_type;

const at_type *at_type_find(const char *name); /* NULL if unknown */
/* "f32, f64": for messages and help. */
const char *at_type_list(void);

#endif
