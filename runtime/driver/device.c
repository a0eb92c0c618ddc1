#include "runtime/driver/driver.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static int attr(at_device *d, CUdevice_attribute a, int *v, const char *what,
                at_err *e)
{
    CUresult r = at_cu.cuDeviceGetAttribute(v, a, d->dev);
    if (r != CUDA_SUCCESS)
        return at_cu_fail(e, r, what, NULL);
    return 0;
}

const char *at_nvidia_proc(void)
{
#ifdef AT_TEST
    /* tests/test_device_memo.c: a kernel module's listing of its own. */
    const char *t = getenv("AT_TEST_NVIDIA");
    if (t && *t)
        return t;
#endif
    return "/proc/driver/nvidia";
}

/* The kernel module's version: cuDriverGetVersion gives only the CUDA
 * version, which stays the same across driver updates. */
void at_driver_build(char *buf, size_t n)
{
    snprintf(buf, n, "unknown");
    const char *proc = at_nvidia_proc();
    char line[256], path[1100];
    FILE *f = strcmp(proc, "/proc/driver/nvidia")
                  ? NULL
                  : fopen("/sys/module/nvidia/version", "r");
    if (f) {
        if (fgets(line, sizeof line, f))
            sscanf(line, "%31s", buf);
        fclose(f);
        return;
    }
    /* "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  ..." */
    snprintf(path, sizeof path, "%s/version", proc);
    f = fopen(path, "r");
    if (!f)
        return;
    if (fgets(line, sizeof line, f)) {
        char *m = strstr(line, "Kernel Module");
        if (m)
            sscanf(m + strlen("Kernel Module"), "%31s", buf);
    }
    fclose(f);
}

int at_device_count(int *n, at_err *e)
{
    *n = 0;
    int rc = at_cu_load(e);
    if (rc)
        return rc;
    AT_CU_TRY(e, NULL, cuDeviceGetCount, n);
    return 0;
}

/* Everything of device `ordinal` but NVRTC's version (the driver
 * loaded). */
int at_device_facts(at_device *d, int ordinal, at_err *e)
{
    memset(d, 0, sizeof *d);
    int count = 0;
    AT_CU_TRY(e, NULL, cuDeviceGetCount, &count);
    if (count == 0)
        return at_fail(e, AUTOTUNE_ENO_DEVICE,
                       "no CUDA device: the driver reports 0 devices");
    if (ordinal < 0 || ordinal >= count)
        return at_fail(e, AUTOTUNE_ENO_DEVICE,
                       "no CUDA device %d: the driver reports %d", ordinal,
                       count);
    d->ordinal = ordinal;
    d->visible = count;
    AT_CU_TRY(e, NULL, cuDeviceGet, &d->dev, ordinal);
    CUuuid id;
    AT_CU_TRY(e, NULL, cuDeviceGetUuid, &id, d->dev);
    const unsigned char *b = (const unsigned char *)id.bytes;
    snprintf(d->uuid, sizeof d->uuid, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-"
             "%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3],
             b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
             b[14], b[15]);
    AT_CU_TRY(e, NULL, cuDeviceGetName, d->name, (int)sizeof d->name, d->dev);
    AT_CU_TRY(e, NULL, cuDriverGetVersion, &d->driver_version);
    at_driver_build(d->driver_build, sizeof d->driver_build);
    AT_CU_TRY(e, NULL, cuDeviceTotalMem, &d->total_mem, d->dev);
    struct {
        CUdevice_attribute a;
        int *v;
        const char *what;
    } attrs[] = {
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &d->cc_major,
         "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR)"},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &d->cc_minor,
         "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MINOR)"},
        {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &d->sms,
         "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)"},
        {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &d->l2_bytes,
         "cuDeviceGetAttribute(L2_CACHE_SIZE)"},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &d->max_threads,
         "cuDeviceGetAttribute(MAX_THREADS_PER_BLOCK)"},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
         &d->max_smem_optin,
         "cuDeviceGetAttribute(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)"},
        {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, &d->clock_khz,
         "cuDeviceGetAttribute(CLOCK_RATE)"},
    };
    int rc;
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; ++i)
        if ((rc = attr(d, attrs[i].a, attrs[i].v, attrs[i].what, e)))
            return rc;
    d->sm = d->cc_major * 10 + d->cc_minor;
    return 0;
}

int at_device_open(at_device *d, int ordinal, at_err *e)
{
    memset(d, 0, sizeof *d);
    int rc = at_cu_load(e);
    if (!rc)
        rc = at_nvrtc_load(e);
    if (!rc)
        rc = at_device_facts(d, ordinal, e);
    if (!rc)
        snprintf(d->nvrtc, sizeof d->nvrtc, "%s", at_nvrtc_version_str());
    return rc;
}

void at_device_close(at_device *d)
{
    if (d && d->ctx) {
        at_cu.cuDevicePrimaryCtxRelease(d->dev);
        d->ctx = NULL;
    }
}

at_limits at_device_limits(const at_device *d)
{
    at_limits l = {d->sm, d->max_threads, d->max_smem_optin};
    return l;
}

/* Threads of one context may push its device at once: one retains. */
static pthread_mutex_t retain_mu = PTHREAD_MUTEX_INITIALIZER;

int at_device_push(const at_device *d, at_err *e)
{
    /* Every at_device is a caller's variable, never a const object:
     * retaining the context on first use fills in what open left. */
    at_device *m = (at_device *)d;
    int rc = at_device_resolve(m, e);
    if (rc)
        return rc;
    CUcontext ctx = __atomic_load_n(&m->ctx, __ATOMIC_ACQUIRE);
    if (!ctx) {
        pthread_mutex_lock(&retain_mu);
        CUresult r = CUDA_SUCCESS;
        if (!(ctx = m->ctx) &&
            (r = at_cu.cuDevicePrimaryCtxRetain(&ctx, m->dev)) == CUDA_SUCCESS)
            __atomic_store_n(&m->ctx, ctx, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&retain_mu);
        if (r != CUDA_SUCCESS)
            return at_cu_fail(e, r, "cuDevicePrimaryCtxRetain", NULL);
    }
    AT_CU_TRY(e, NULL, cuCtxPushCurrent, ctx);
    return 0;
}

void at_device_pop(void)
{
    CUcontext c;
    at_cu.cuCtxPopCurrent(&c);
}
