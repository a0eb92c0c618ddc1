#include "runtime/driver/driver.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "base/dl.h"

at_cu_api at_cu;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static at_err load_err;
/* Set (release) after the table is filled: a reader that sees 1 sees it. */
static atomic_int ready;

#define AT_STR2_(x) #x
#define AT_STR_(x) AT_STR2_(x)

CUresult (*at_cu_param_info)(CUfunction, size_t, size_t *, size_t *);

static const char *driver_path(void)
{
    const char *env = getenv("AUTOTUNE_LIBCUDA");
    return env && *env ? env : "libcuda.so.1";
}

int at_cu_library_id(char *buf, size_t n)
{
    const char *path = driver_path();
    char why[1024], file[1024];
    struct stat st;
    /* (the library stays open: at_cu_load opens it again for free) */
    void *h = at_dl_open_first(&path, 1, why, sizeof why);
    if (!h || at_dl_path(h, file, sizeof file) || stat(file, &st))
        return -1;
    snprintf(buf, n, "%llx:%llx:%llx", (unsigned long long)st.st_ino,
             (unsigned long long)st.st_size,
             (unsigned long long)st.st_mtime);
    return 0;
}

static void load(void)
{
    const char *path = driver_path();
    char why[1024];
    void *h = at_dl_open_first(&path, 1, why, sizeof why);
    if (!h) {
        at_fail(&load_err, AUTOTUNE_ENO_DRIVER, "no CUDA driver: %s", why);
        return;
    }
#define AT_CU_SYM_(fn)                                                       \
    at_cu.fn = (__typeof__(fn) *)at_dl_sym(h, AT_STR_(fn));                      \
    if (!at_cu.fn) {                                                         \
        at_fail(&load_err, AUTOTUNE_ENO_DRIVER,                              \
                "CUDA driver %s lacks %s (driver too old?)", path,          \
                AT_STR_(fn));                                                \
        return;                                                              \
    }
    AT_CU_FUNCS(AT_CU_SYM_)
#undef AT_CU_SYM_
    at_cu_param_info = (__typeof__(at_cu_param_info))at_dl_sym(
        h, "cuFuncGetParamInfo");
    CUresult r = at_cu.cuInit(0);
    if (r == CUDA_ERROR_NO_DEVICE)
        at_fail(&load_err, AUTOTUNE_ENO_DEVICE,
                "no CUDA device: cuInit: CUDA_ERROR_NO_DEVICE (100)");
    else if (r != CUDA_SUCCESS)
        at_cu_fail(&load_err, r, "cuInit", NULL);
    else
        atomic_store_explicit(&ready, 1, memory_order_release);
}

int at_cu_ready(void)
{
    return atomic_load_explicit(&ready, memory_order_acquire);
}

int at_cu_load(at_err *e)
{
    pthread_once(&once, load);
    if (load_err.code) {
        if (e)
            *e = load_err;
        return load_err.code;
    }
    return 0;
}

int at_cu_fail(at_err *e, CUresult r, const char *call, const char *variant)
{
    if (r == CUDA_SUCCESS)
        return 0;
    const char *name = NULL, *text = NULL;
    if (!at_cu.cuGetErrorName || at_cu.cuGetErrorName(r, &name) != 0)
        name = "CUDA_ERROR_?";
    if (!at_cu.cuGetErrorString || at_cu.cuGetErrorString(r, &text) != 0)
        text = "unknown";
    return at_fail(e, AUTOTUNE_ECUDA, "%s: %s (%d): %s%s%s%s", call, name,
                   (int)r, text, variant ? " [variant " : "",
                   variant ? variant : "", variant ? "]" : "");
}

int at_cu_launch_refused(CUresult r)
{
    return r == CUDA_ERROR_INVALID_VALUE ||
           r == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ||
           r == CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING ||
           r == CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
}

int at_cu_grow(CUdeviceptr *buf, size_t *have, size_t want,
               const char *what, at_err *e)
{
    if (want <= *have)
        return 0;
    if (*buf)
        at_cu.cuMemFree(*buf);
    *buf = 0;
    *have = 0;
    AT_CU_TRY(e, what, cuMemAlloc, buf, want);
    *have = want;
    return 0;
}
