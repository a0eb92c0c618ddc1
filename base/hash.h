/* FNV-1a, 64 bit: cheap, stable across runs and machines. Used for cache key
 * parts (template, space), never for security. */
#ifndef AT_HASH_H
#define AT_HASH_H

#include <stddef.h>
#include <stdint.h>

#define AT_HASH_INIT 0xcbf29ce484222325ULL

static inline uint64_t at_hash(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; ++i)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

#endif
