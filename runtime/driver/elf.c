#include "runtime/driver/driver.h"

#include <stdio.h>
#include <string.h>

#include "base/hash.h"

static uint64_t rd(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i)
        v = v << 8 | p[i];
    return v;
}

int at_elf_section(const void *elf, size_t size, const char *name,
                   const unsigned char **data, size_t *len, uint32_t *info)
{
    const unsigned char *b = elf;
    if (size < 64 || memcmp(b, "\x7f" "ELF", 4) != 0 || b[4] != 2 ||
        b[5] != 1)
        return -1; /* not ELF64 little-endian */
    uint64_t shoff = rd(b + 0x28, 8);
    uint64_t shentsize = rd(b + 0x3A, 2), shnum = rd(b + 0x3C, 2);
    uint64_t shstrndx = rd(b + 0x3E, 2);
    if (shentsize < 64 || shstrndx >= shnum || shoff > size ||
        shnum > (size - shoff) / shentsize)
        return -1;
    const unsigned char *strs = b + shoff + shstrndx * shentsize;
    uint64_t str_off = rd(strs + 24, 8), str_size = rd(strs + 32, 8);
    if (str_off > size || str_size > size - str_off)
        return -1;
    size_t want = strlen(name);
    for (uint64_t i = 0; i < shnum; ++i) {
        const unsigned char *sh = b + shoff + i * shentsize;
        uint64_t nm = rd(sh, 4);
        if (nm >= str_size || str_size - nm <= want ||
            memcmp(b + str_off + nm, name, want + 1) != 0)
            continue;
        uint32_t type = (uint32_t)rd(sh + 4, 4);
        uint64_t off = rd(sh + 24, 8), sz = rd(sh + 32, 8);
        *info = (uint32_t)rd(sh + 44, 4);
        *len = (size_t)sz;
        if (type == 8) { /* SHT_NOBITS: a size, no contents */
            *data = NULL;
            return 1;
        }
        if (off > size || sz > size - off)
            return -1;
        *data = b + off;
        return 1;
    }
    return 0;
}

int at_elf_kernel_symbol(const void *elf, size_t size, const char *name,
                         char *out, size_t n)
{
    const unsigned char *d;
    size_t len;
    uint32_t info;
    char sec[300], cxx[200];
    snprintf(sec, sizeof sec, ".text.%s", name);
    int r = at_elf_section(elf, size, sec, &d, &len, &info);
    if (r != 0)
        return r < 0 || strlen(name) >= n ? -1
                                          : (snprintf(out, n, "%s", name), 1);
    /* Not extern "C": the section of the mangled name, found by its
     * prefix among the section names. */
    snprintf(cxx, sizeof cxx, ".text._Z%zu%s", strlen(name), name);
    const unsigned char *b = elf;
    uint64_t shoff = rd(b + 0x28, 8), shentsize = rd(b + 0x3A, 2);
    uint64_t shnum = rd(b + 0x3C, 2), shstrndx = rd(b + 0x3E, 2);
    const unsigned char *strs = b + shoff + shstrndx * shentsize;
    uint64_t str_off = rd(strs + 24, 8), str_size = rd(strs + 32, 8);
    size_t want = strlen(cxx);
    for (uint64_t i = 0; i < shnum; ++i) {
        uint64_t nm = rd(b + shoff + i * shentsize, 4);
        if (nm >= str_size || str_size - nm <= want ||
            memcmp(b + str_off + nm, cxx, want) != 0)
            continue;
        const char *sym = (const char *)b + str_off + nm + 6; /* ".text." */
        size_t k = strnlen(sym, str_size - nm - 6);
        if (k >= n || k == str_size - nm - 6)
            return -1;
        memcpy(out, sym, k);
        out[k] = '\0';
        return 1;
    }
    return 0;
}

uint64_t at_elf_kernel_hash(const void *elf, size_t size, const char *kernel)
{
    static const char *const parts[] = {".text.", ".nv.info.", ".nv.shared.",
                                        ".nv.constant0."};
    uint64_t h = AT_HASH_INIT;
    for (int i = 0; i < 4; ++i) {
        char name[160];
        snprintf(name, sizeof name, "%s%s", parts[i], kernel);
        const unsigned char *d = NULL;
        size_t n = 0;
        uint32_t info = 0;
        int r = at_elf_section(elf, size, name, &d, &n, &info);
        if (r < 0 || (r == 0 && i == 0))
            return 0;
        /* Section indices differ between kernels of one cubin: .text's
         * info word keeps a symbol index (and, from older toolkits, the
         * register count in its top byte), .nv.info's records name
         * sections by index. So: the code's bytes, that top byte, and the
         * other sections' sizes. */
        uint64_t meta[3] = {(uint64_t)r, n, i == 0 ? info >> 24 : 0};
        h = at_hash(h, meta, sizeof meta);
        if (d && i == 0)
            h = at_hash(h, d, n);
    }
    return h ? h : 1;
}

/* .nv.info's records: a format byte, an attribute byte, then by format
 * nothing (1), a byte and a pad (2), a half word (3), or a half-word
 * length and that many bytes (4). EIATTR_REGCOUNT (0x2f, format 4) holds
 * a kernel's symbol index and its registers, a word each. */
int at_elf_kernel_regs(const void *elf, size_t size, const char *kernel)
{
    char name[160];
    const unsigned char *d = NULL;
    size_t n = 0;
    uint32_t info = 0;
    snprintf(name, sizeof name, ".text.%s", kernel);
    if (at_elf_section(elf, size, name, &d, &n, &info) != 1)
        return 0;
    if (info >> 24) /* older toolkits keep the count here */
        return (int)(info >> 24);
    const uint32_t sym = info & 0xffffffu;
    if (at_elf_section(elf, size, ".nv.info", &d, &n, &info) != 1 || !d)
        return 0;
    for (size_t i = 0; i + 2 <= n;) {
        const unsigned fmt = d[i], attr = d[i + 1];
        size_t step = fmt == 1 ? 2 : 4;
        if (fmt < 1 || fmt > 4 || i + step > n)
            return 0;
        if (fmt == 4) {
            const size_t len = (size_t)rd(d + i + 2, 2);
            if (len > n - i - 4)
                return 0;
            if (attr == 0x2f && len >= 8 && rd(d + i + 4, 4) == sym)
                return (int)rd(d + i + 8, 4);
            step += len;
        }
        i += step;
    }
    return 0;
}
