/* The CUDA driver, loaded with dlopen so every binary starts on a machine
 * without one. cuda.h renames versioned entry points (cuMemAlloc ->
 * cuMemAlloc_v2); the X-macro expands through those names, so the table's
 * members, the symbols looked up and the calls all agree. */
#ifndef AT_CUDA_API_H
#define AT_CUDA_API_H

#include <cuda.h>

#include "base/error.h"

#define AT_CU_FUNCS(X)                                                       \
    X(cuInit) X(cuDriverGetVersion) X(cuGetErrorName) X(cuGetErrorString)    \
    X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetName)                    \
    X(cuDeviceGetAttribute) X(cuDeviceTotalMem)                              \
    X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease)                 \
    X(cuCtxPushCurrent) X(cuCtxPopCurrent) X(cuCtxSynchronize)               \
    X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyDtoH)               \
    X(cuMemcpyDtoD) X(cuMemcpyDtoDAsync) X(cuMemsetD32Async) X(cuMemsetD32)  \
    X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction)             \
    X(cuFuncGetAttribute) X(cuFuncSetAttribute) X(cuLaunchKernel)            \
    X(cuEventCreate) X(cuEventDestroy) X(cuEventRecord)                      \
    X(cuEventSynchronize) X(cuEventElapsedTime)                              \
    X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamSynchronize)              \
    X(cuEventQuery) X(cuStreamQuery) X(cuFuncGetModule)                      \
    X(cuModuleGetGlobal) X(cuMemcpyHtoDAsync) X(cuCtxGetCurrent)             \
    X(cuMemHostRegister) X(cuMemHostUnregister)

#define AT_CU_MEMBER_(fn) __typeof__(fn) *fn;
typedef struct at_cu_api {
    AT_CU_FUNCS(AT_CU_MEMBER_)
} at_cu_api;
#undef AT_CU_MEMBER_

/* cuFuncGetParamInfo (drivers of CUDA 12.4 and later; NULL before): a
 * kernel's parameters, to check a launch's arguments against. */
extern CUresult (*at_cu_param_info)(CUfunction, size_t, size_t *, size_t *);

/* Loads libcuda.so.1 and cuInit()s once; AUTOTUNE_ENO_DRIVER with the
 * dlopen error if it is absent. Thread-safe. */
int at_cu_load(at_err *e);
extern at_cu_api at_cu;
/* 1 once at_cu_load has succeeded (every entry found, cuInit done), else
 * 0; never loads. For code that may use the driver but must not start it
 * (runtime/host_pool.c): a failed load leaves the table partly filled. */
int at_cu_ready(void);

/* Formats a failed driver call: "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2):
 * out of memory [variant]". Returns AUTOTUNE_ECUDA (0 if r is success). */
int at_cu_fail(at_err *e, CUresult r, const char *call, const char *variant);

/* Whether a failed cuLaunchKernel refused the launch itself (too many
 * threads or registers, too much shared memory, a bad configuration),
 * leaving the context usable: the variant cannot launch, the GPU is
 * fine. */
int at_cu_launch_refused(CUresult r);

/* Calls at_cu.fn(...) and, on failure, records it and returns from the
 * enclosing function with AUTOTUNE_ECUDA. */
#define AT_CU_TRY(e, variant, fn, ...)                                       \
    do {                                                                     \
        CUresult at_r_ = at_cu.fn(__VA_ARGS__);                              \
        if (at_r_ != CUDA_SUCCESS)                                           \
            return at_cu_fail((e), at_r_, #fn, (variant));                   \
    } while (0)

#endif
