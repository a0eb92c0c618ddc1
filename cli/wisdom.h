/* Wisdom files: the tuning cache's entries as a versioned JSON text
 * ("format": "autotune.wisdom", "version": 1; docs/WISDOM.md), written by
 * `autotune cache export` (wisdom_export.c) and read back, every part
 * checked before anything is written, by `autotune cache import`
 * (wisdom_import.c). */
#ifndef AT_WISDOM_H
#define AT_WISDOM_H

#include <jansson.h>
#include <stddef.h>

#include "runtime/store/store.h"

#define AT_WISDOM_FORMAT "autotune.wisdom"
#define AT_WISDOM_VERSION 1

/* Standard base64 (RFC 4648, padded, no line breaks). encode: malloc'd
 * and NUL-terminated, NULL on no memory. decode: 0 (*out malloc'd, *n
 * bytes), -1 not canonical base64 (a stray byte, bad padding or length),
 * -2 no memory. */
char *at_base64_encode(const void *data, size_t n);
int at_base64_decode(const char *s, size_t len, unsigned char **out,
                     size_t *n);

/* "measure", "exhaustive" (and the API's other efforts); "unknown". */
const char *at_effort_name(int effort);

/* One entry as a wisdom object: its whole key, point, figures, effort,
 * seed, created, cubin size and hash, and, with_cubin, the cubin in
 * base64. NULL on no memory. */
json_t *at_wisdom_entry(const at_entry *en, int with_cubin);

/* An entry's profile (runtime/store/store.h) as a JSON array of {"ms",
 * "params"}; NULL on no memory. read: the array back into the cache's
 * text (buf, n bytes): 0, or -1 with why ("point 3 is not ..."). */
json_t *at_wisdom_profile_json(const char *text);
int at_wisdom_profile_read(json_t *list, char *buf, size_t n, char *why,
                           size_t wn);

/* Writes en[0..n) as a wisdom file to path ('-': stdout). 0 or
 * AUTOTUNE_EIO / AUTOTUNE_ENOMEM in e. */
int at_wisdom_export(const at_entry *en, size_t n, const char *path,
                     int cubins, at_err *e);

/* Reads the wisdom file path ('-': stdin), checks every entry and, if
 * all pass, imports them into the cache at cache_path in one
 * transaction, saying per entry what became of it (force: each replaces
 * the cache's). The exit status: 0, 1 failed, 2 bad input (said on
 * stderr; nothing written). */
int at_wisdom_import(const char *path, const char *cache_path, int force);

#endif
