/* NVRTC, loaded with dlopen (from $AUTOTUNE_NVRTC, the loader's path, or
 * the CUDA toolkit's lib64). */
#ifndef AT_NVRTC_API_H
#define AT_NVRTC_API_H

#include <nvrtc.h>

#include "base/error.h"

#define AT_NVRTC_FUNCS(X)                                                    \
    X(nvrtcVersion) X(nvrtcGetErrorString) X(nvrtcCreateProgram)             \
    X(nvrtcDestroyProgram) X(nvrtcCompileProgram) X(nvrtcGetProgramLogSize)  \
    X(nvrtcGetProgramLog) X(nvrtcGetCUBINSize) X(nvrtcGetCUBIN)

#define AT_NVRTC_MEMBER_(fn) __typeof__(fn) *fn;
typedef struct at_nvrtc_api {
    AT_NVRTC_FUNCS(AT_NVRTC_MEMBER_)
    /* Optional (NVRTC 12.8 and later): NULL where absent. */
    __typeof__(nvrtcSetFlowCallback) *nvrtcSetFlowCallback;
} at_nvrtc_api;
#undef AT_NVRTC_MEMBER_

int at_nvrtc_load(at_err *e); /* once; thread-safe */
extern at_nvrtc_api at_nvrtc;
/* "13.0" */
const char *at_nvrtc_version_str(void);
/* The CUDA toolkit's include folder beside the loaded NVRTC (the one
 * with cuda_runtime.h and cccl/), or NULL if none was found; after a
 * successful at_nvrtc_load. */
const char *at_nvrtc_include_dir(void);

#endif
