/* Sections of a cubin (an ELF64 image), by name: what tells two kernels'
 * machine code apart when several kernels share one cubin. */
#ifndef AT_ELF_H
#define AT_ELF_H

#include <stddef.h>
#include <stdint.h>

/* 1 found (*data, *len, *info set; data NULL for a section without
 * contents), 0 no such section, -1 not a well-formed ELF64 image. */
int at_elf_section(const void *elf, size_t size, const char *name,
                   const unsigned char **data, size_t *len, uint32_t *info);

/* A hash of kernel K's code and what the driver reads about it: the bytes
 * of .text.K and its register count, and the sizes of .nv.info.K,
 * .nv.shared.K and .nv.constant0.K; 0 if the kernel's .text is not
 * there. */
uint64_t at_elf_kernel_hash(const void *elf, size_t size, const char *kernel);

/* The symbol of kernel `name` in the cubin: name itself (extern "C"), or
 * the C++ one NVRTC lowered it to, _Z<length><name><parameters> (the
 * length makes the match exact). 1 found (in out), 0 none, -1 not ELF64
 * or out too small. */
int at_elf_kernel_symbol(const void *elf, size_t size, const char *name,
                         char *out, size_t n);

#endif
