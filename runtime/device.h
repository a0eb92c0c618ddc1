/* A CUDA device: its identity (the cache key's GPU part), its limits, and
 * its primary context, which the CUDA runtime API shares. */
#ifndef AT_DEVICE_H
#define AT_DEVICE_H

#include <stddef.h>

#include "gen/space.h"
#include "cuda_api.h"

typedef struct at_device {
    int ordinal;
    CUdevice dev;
    CUcontext ctx; /* retained primary context, from the first push */
    char name[256];
    int cc_major, cc_minor, sm; /* sm = 10 * major + minor */
    int sms, l2_bytes, max_threads, max_smem_optin, clock_khz;
    int driver_version;  /* 13000 for 13.0 */
    char driver_build[32]; /* "580.159.04", or "unknown" */
    char nvrtc[32];      /* "13.0" */
    size_t total_mem;
} at_device;

/* Loads the driver and NVRTC, checks the ordinal and reads the
 * attributes. The primary context is retained at the first push: a
 * process that only looks the device up (a cache hit, or a tune its GPU
 * worker does) never pays for creating one. */
int at_device_open(at_device *d, int ordinal, at_err *e);
void at_device_close(at_device *d);
at_limits at_device_limits(const at_device *d);
/* Makes d's context current for the calling thread (pairs with pop). */
int at_device_push(const at_device *d, at_err *e);
void at_device_pop(void);

#endif
