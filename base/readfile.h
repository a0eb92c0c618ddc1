/* A whole (small) file into memory, NUL-terminated. */
#ifndef AT_READFILE_H
#define AT_READFILE_H

#include <stddef.h>

#include "base/error.h"

/* Files larger than this are refused (specs and kernel sources are a
 * few kilobytes). */
#define AT_READ_FILE_MAX (16u << 20)

/* *out (malloc'd, NUL after the *len bytes) holds path's bytes;
 * AUTOTUNE_EIO naming the path and errno's text, the size limit, or a
 * path that is not a regular file (a FIFO, a device: never waited on). */
int at_read_file(const char *path, char **out, size_t *len, at_err *e);
/* The same with a limit of max bytes. */
int at_read_file_max(const char *path, size_t max, char **out, size_t *len,
                     at_err *e);

#endif
