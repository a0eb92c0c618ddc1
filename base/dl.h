/* Dynamic loading: the first of several candidate libraries that opens.
 * The driver, NVRTC and the benchmark's libraries are all loaded this way,
 * so every binary starts on a machine that has none of them. */
#ifndef AT_DL_H
#define AT_DL_H

#include <stddef.h>

/* Opens the first candidate that dlopen accepts (NULL entries are
 * skipped). On failure returns NULL and writes into why the candidates
 * tried and the first dlerror(). */
void *at_dl_open_first(const char *const *candidates, size_t n, char *why,
                       size_t why_n);
/* dlsym, or NULL. */
void *at_dl_sym(void *lib, const char *name);
/* The file the loader took for lib (its path as found); -1 if unknown. */
int at_dl_path(void *lib, char *buf, size_t n);

#endif
