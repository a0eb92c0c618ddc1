/* cuTENSOR 2.x loaded at run time, for the benchmark's contenders (the
 * transpose's permute, the reduction's reduce): the library, the few
 * calls they make, and one handle on the current context. The build needs
 * no cuTENSOR: the declarations used are copied here (cutensor.h,
 * cutensor/types.h, library_types.h give the enumerators' values). */
#ifndef AT_CUTENSOR_LIB_H
#define AT_CUTENSOR_LIB_H

#include <stdint.h>

#include "base/error.h"
#include "runtime/driver/driver.h"

typedef int ct_status;
typedef struct ct_handle_s *ct_handle;
typedef struct ct_desc_s *ct_desc;
typedef struct ct_op_s *ct_op;
typedef struct ct_pref_s *ct_pref;
typedef struct ct_plan_s *ct_plan;
typedef struct ct_compute_s *ct_compute;
enum { CT_SUCCESS = 0, CT_ALGO_DEFAULT = -1, CT_JIT_NONE = 0,
       CT_WORKSPACE_DEFAULT = 2 };
/* Operators: unary, then binary. */
enum { CT_OP_IDENTITY = 1, CT_OP_ABS = 24, CT_OP_ADD = 3, CT_OP_MAX = 6,
       CT_OP_MIN = 7 };
enum { CT_R_32F = 0, CT_R_64F = 1, CT_R_16F = 2, CT_C_32F = 4,
       CT_C_64F = 5, CT_R_16BF = 14 };
/* The buffers' alignment: cuMemAlloc's. */
enum { AT_CT_ALIGN = 256 };

#define AT_CT_FUNCS(X)                                                       \
    X(cutensorCreate, ct_status, (ct_handle *))                              \
    X(cutensorDestroy, ct_status, (ct_handle))                               \
    X(cutensorGetErrorString, const char *, (ct_status))                     \
    X(cutensorGetVersion, size_t, (void))                                    \
    X(cutensorCreateTensorDescriptor, ct_status,                             \
      (ct_handle, ct_desc *, uint32_t, const int64_t *, const int64_t *,     \
       int, uint32_t))                                                       \
    X(cutensorDestroyTensorDescriptor, ct_status, (ct_desc))                 \
    X(cutensorCreatePermutation, ct_status,                                  \
      (ct_handle, ct_op *, ct_desc, const int32_t *, int, ct_desc,           \
       const int32_t *, ct_compute))                                         \
    X(cutensorCreateReduction, ct_status,                                    \
      (ct_handle, ct_op *, ct_desc, const int32_t *, int, ct_desc,           \
       const int32_t *, int, ct_desc, const int32_t *, int, ct_compute))     \
    X(cutensorDestroyOperationDescriptor, ct_status, (ct_op))                \
    X(cutensorCreatePlanPreference, ct_status,                               \
      (ct_handle, ct_pref *, int, int))                                      \
    X(cutensorDestroyPlanPreference, ct_status, (ct_pref))                   \
    X(cutensorEstimateWorkspaceSize, ct_status,                              \
      (ct_handle, ct_op, ct_pref, int, uint64_t *))                          \
    X(cutensorCreatePlan, ct_status,                                         \
      (ct_handle, ct_plan *, ct_op, ct_pref, uint64_t))                      \
    X(cutensorDestroyPlan, ct_status, (ct_plan))                             \
    X(cutensorPermute, ct_status,                                            \
      (ct_handle, ct_plan, const void *, const void *, void *, CUstream))    \
    X(cutensorReduce, ct_status,                                             \
      (ct_handle, ct_plan, const void *, const void *, const void *,         \
       const void *, void *, void *, uint64_t, CUstream))

typedef struct at_ct_lib {
    void *lib;
#define AT_CT_MEMBER_(fn, ret, args) ret(*fn) args;
    AT_CT_FUNCS(AT_CT_MEMBER_)
#undef AT_CT_MEMBER_
    const ct_compute *desc_32f, *desc_64f; /* the library's constants */
    ct_handle h;
    ct_plan plan; /* the last operation planned; NULL: none */
    int wide;     /* its compute type is 64-bit */
    char version[32]; /* "cuTENSOR 2.8.1" */
} at_ct_lib;

/* Loads libcutensor ($AUTOTUNE_CUTENSOR, else libcutensor.so.2) into l
 * and creates a handle on the current context. On failure
 * AUTOTUNE_ENOT_FOUND (no library, or one without a call used here) or
 * AUTOTUNE_ECUDA (no handle), with why, and l holds nothing. */
int at_ct_lib_open(at_ct_lib *l, at_err *e);
/* The plan and the handle; the library stays loaded, as cuBLAS does. */
void at_ct_lib_close(at_ct_lib *l);
/* AUTOTUNE_ECUDA with "call: STATUS_NAME (code) [what]". */
int at_ct_fail(at_err *e, const at_ct_lib *l, ct_status st,
               const char *call, const char *what);
/* Finishes a plan in place of l's last: st and call are how making the
 * operation op and its descriptors went (CT_SUCCESS: they exist). If they
 * were made, l->plan from the default algorithm (l->wide: its compute
 * type is 64-bit), with workspace up to cuTENSOR's default estimate where
 * work is not NULL (*work: its size), none otherwise. Then frees op and
 * the n descriptors d (NULL ones skipped), whatever happened; on failure
 * l->plan is NULL and the error names the call, its status and what. */
int at_ct_plan(at_ct_lib *l, ct_status st, const char *call, ct_op op,
               ct_desc *d, int n, int wide, uint64_t *work,
               const char *what, at_err *e);
/* 0 if l has a plan and in and out are aligned as its descriptors say
 * (AT_CT_ALIGN); else AUTOTUNE_EINVALID naming what. */
int at_ct_runnable(const at_ct_lib *l, CUdeviceptr in, CUdeviceptr out,
                   const char *what, at_err *e);

/* The cudaDataType_t of an element type ("f32"), and whether its compute
 * type is 64-bit; -1 for a type cuTENSOR does not take (integers: its
 * permute and reduce are for floating types). */
int at_ct_data_type(const char *type, int *wide);

#endif
