/* What a C preprocessor makes of a translation unit, as a digest: two
 * variants of a user's kernel whose #defines differ only where the
 * source never looks (Kernel Tuner's use_padding where no padding is
 * inserted) preprocess to the same tokens, so one compile serves both.
 * Exact or nothing: whatever it does not model (an #include, whose
 * header it cannot read; a predefined macro such as __CUDA_ARCH__ in
 * an #if; # and ## in a macro; __LINE__; raw strings) gives no digest,
 * and the caller compiles as it always did. */
#ifndef AT_CPP_H
#define AT_CPP_H

#include <stddef.h>
#include <stdint.h>

/* 1 and the digest of src's preprocessed tokens in d[0..1]; 0 if it
 * cannot be had (why, n bytes, says what stopped it). Never fails
 * otherwise: out of memory is a 0 too. */
int at_cpp_digest(const char *src, uint64_t d[2], char *why, size_t n);

#endif
