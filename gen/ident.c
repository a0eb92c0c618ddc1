#include "ident.h"

#include <string.h>

/* C11 and C++17 keywords and alternative tokens, and names whose use as
 * an extern "C" function would clash with a program or the toolchain. */
static const char *const taken[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor",
    "bool", "break", "case", "catch", "char", "char8_t", "char16_t",
    "char32_t", "class", "compl", "concept", "const", "consteval",
    "constexpr", "constinit", "const_cast", "continue", "co_await",
    "co_return", "co_yield", "decltype", "default", "delete", "do",
    "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern",
    "false", "float", "for", "friend", "goto", "if", "inline", "int", "long",
    "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
    "operator", "or", "or_eq", "private", "protected", "public", "register",
    "reinterpret_cast", "requires", "restrict", "return", "short", "signed",
    "sizeof", "static", "static_assert", "static_cast", "struct", "switch",
    "template", "this", "thread_local", "throw", "true", "try", "typedef",
    "typeid", "typename", "union", "unsigned", "using", "virtual", "void",
    "volatile", "wchar_t", "while", "xor", "xor_eq", "main", "exit",
    "abort", "malloc", "free", "printf", "memcpy", "memset", "dim3",
    "warpSize", "threadIdx", "blockIdx", "blockDim", "gridDim", "assert",
    "min", "max", "NULL", "errno", "stdin", "stdout", "stderr",
};

/* Prefixes of CUDA's runtime, driver and library names, and autotune's
 * own ("cu" only before a capital, so "cube" stays usable). */
static const char *const prefixes[] = {"cuda", "cublas", "cufft", "curand",
                                       "cusparse", "cusolver", "cutensor",
                                       "nvrtc", "nvtx", "nvml", "CU_",
                                       "CUDA", "NV_", "at_", "AT_"};

static int starts(const char *name, const char *prefix)
{
    return strncmp(name, prefix, strlen(prefix)) == 0;
}

int at_ident_check(const char *name, at_err *e)
{
    size_t n = strlen(name);
    if (n == 0)
        return at_fail(e, AUTOTUNE_EINVALID, "the name is empty");
    if (n > AT_IDENT_MAX)
        return at_fail(e, AUTOTUNE_EINVALID, "the name is %zu characters "
                       "long (at most %d)", n, AT_IDENT_MAX);
    for (size_t i = 0; i < n; ++i) {
        char c = name[i];
        int ok = c == '_' || (c >= 'a' && c <= 'z') ||
                 (c >= 'A' && c <= 'Z') || (i && c >= '0' && c <= '9');
        if (!ok)
            return at_fail(e, AUTOTUNE_EINVALID, "'%.*s' is not a C "
                           "identifier (letters, digits after the first, "
                           "'_')", AT_IDENT_MAX, name);
    }
    if (name[0] == '_')
        return at_fail(e, AUTOTUNE_EINVALID, "'%s' starts with '_': such "
                       "names are reserved for the implementation", name);
    for (size_t i = 0; i < sizeof taken / sizeof taken[0]; ++i)
        if (strcmp(name, taken[i]) == 0)
            return at_fail(e, AUTOTUNE_EINVALID, "'%s' is a C/C++ keyword "
                           "or a name a program or CUDA already uses",
                           name);
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; ++i)
        if (starts(name, prefixes[i]))
            return at_fail(e, AUTOTUNE_EINVALID, "'%s' starts with '%s', "
                           "which CUDA's or autotune's own names use", name,
                           prefixes[i]);
    if (starts(name, "cu") && name[2] >= 'A' && name[2] <= 'Z')
        return at_fail(e, AUTOTUNE_EINVALID, "'%s' has the form of a CUDA "
                       "driver API name (cuXxx)", name);
    return 0;
}
