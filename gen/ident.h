/* Names that go into emitted code as code: a launcher's name must be an
 * identifier that nvcc accepts in C and C++ and that cannot collide with
 * the language, the implementation or CUDA. */
#ifndef AT_IDENT_H
#define AT_IDENT_H

#include "base/error.h"

/* The longest launcher name: NAME_batched and NAME_kernel must stay
 * within common identifier limits and our buffers. */
enum { AT_IDENT_MAX = 100 };

/* 0, or AUTOTUNE_EINVALID saying why name is not usable (empty, too long,
 * not an identifier, a keyword, reserved, a CUDA or C library name). */
int at_ident_check(const char *name, at_err *e);

#endif
