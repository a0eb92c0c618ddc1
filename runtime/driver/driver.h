/* The driver layer: the CUDA driver and NVRTC (loaded at run time), modules and cubins (ELF), the device and its limits, pinned host memory, and compiling variants in worker processes. Nothing here knows of caches or tuning. */
#ifndef AT_DRIVER_LAYER_H
#define AT_DRIVER_LAYER_H

#include <cuda.h>
#include <nvrtc.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "gen/space.h"

/* The CUDA driver, loaded with dlopen so every binary starts on a machine
 * without one. cuda.h renames versioned entry points (cuMemAlloc ->
 * cuMemAlloc_v2); the X-macro expands through those names, so the table's
 * members, the symbols looked up and the calls all agree. */

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
    X(cuMemHostRegister) X(cuMemHostUnregister) X(cuDeviceGetUuid)

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
/* Which driver library at_cu_load would load: the file the loader finds
 * (inode, size and time, in hex), without starting the driver (dlopen
 * alone, about a millisecond); -1 where none opens. */
int at_cu_library_id(char *buf, size_t n);
/* 1 once at_cu_load has succeeded (every entry found, cuInit done), else
 * 0; never loads. For code that may use the driver but must not start it
 * (runtime/driver/host_pool.c): a failed load leaves the table partly filled. */
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

/* Device memory *buf of at least want bytes (*have: what it holds now),
 * allocated again only to grow; on failure *buf and *have are 0 and the
 * error names the call and what. */
int at_cu_grow(CUdeviceptr *buf, size_t *have, size_t want,
               const char *what, at_err *e);

/* NVRTC, loaded with dlopen (from $AUTOTUNE_NVRTC, the loader's path, or
 * the CUDA toolkit's lib64). */

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

/* Sections of a cubin (an ELF64 image), by name: what tells two kernels'
 * machine code apart when several kernels share one cubin. */

/* 1 found (*data, *len, *info set; data NULL for a section without
 * contents), 0 no such section, -1 not a well-formed ELF64 image. */
int at_elf_section(const void *elf, size_t size, const char *name,
                   const unsigned char **data, size_t *len, uint32_t *info);

/* A hash of kernel K's code and what the driver reads about it: the bytes
 * of .text.K and its register count, and the sizes of .nv.info.K,
 * .nv.shared.K and .nv.constant0.K; 0 if the kernel's .text is not
 * there. */
uint64_t at_elf_kernel_hash(const void *elf, size_t size, const char *kernel);

/* Registers a thread of kernel K uses (its EIATTR_REGCOUNT in .nv.info,
 * or the top byte of .text.K's info word where older toolkits keep it); 0
 * if the cubin does not say. */
int at_elf_kernel_regs(const void *elf, size_t size, const char *kernel);

/* The symbol of kernel `name` in the cubin: name itself (extern "C"), or
 * the C++ one NVRTC lowered it to, _Z<length><name><parameters> (the
 * length makes the match exact). 1 found (in out), 0 none, -1 not ELF64
 * or out too small. */
int at_elf_kernel_symbol(const void *elf, size_t size, const char *name,
                         char *out, size_t n);

/* A kernel of a loaded cubin by the name its source gave it: extern "C"
 * or C++ (a user's kernel from a spec need not be extern "C"; NVRTC then
 * lowers the name, and the cubin's symbol table says to what). */

/* fn: kernel `name` of mod, loaded from cubin. A name the cubin does not
 * define is AUTOTUNE_ECUDA naming it, the variant and the call. */
int at_module_function(CUmodule mod, const void *cubin, size_t size,
                       const char *name, CUfunction *fn, const char *variant,
                       at_err *e);

/* A CUDA device: its identity (the cache key's GPU part), its limits, and
 * its primary context, which the CUDA runtime API shares. */

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
    char uuid[48];       /* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" */
    int visible;         /* devices this process sees */
    int lazy; /* facts from the host's memo, the driver not loaded yet
               * (at_device_open_remembered); at_device_resolve loads it */
} at_device;

/* Loads the driver and NVRTC, checks the ordinal and reads the
 * attributes. The primary context is retained at the first push: a
 * process that only looks the device up (a cache hit, or a tune its GPU
 * worker does) never pays for creating one. */
int at_device_open(at_device *d, int ordinal, at_err *e);
/* As at_device_open, but from the memo at path (device_memo.c) where it
 * answers for every GPU of this host: no driver loaded (cuInit alone
 * takes 0.1-0.25 s; a cache hit needs the facts only), d->lazy set. Else
 * opens the device and records every GPU's facts in the memo. */
int at_device_open_remembered(at_device *d, int ordinal, const char *path,
                              at_err *e);
/* The memo's file name, one a host (a home may be shared by hosts):
 * "devices-HOST.txt". */
void at_device_memo_name(char *buf, size_t n);
/* For a device opened from the memo: loads the driver and checks the
 * device is the one remembered (at_device_push does this first). 0 at
 * once for a device opened whole. Thread-safe. */
int at_device_resolve(at_device *d, at_err *e);
/* Everything of device ordinal but NVRTC's version, the driver loaded. */
int at_device_facts(at_device *d, int ordinal, at_err *e);
/* The kernel module's version ("580.159.04"), or "unknown". */
void at_driver_build(char *buf, size_t n);
/* The kernel module's folder in /proc ("/proc/driver/nvidia"; in test
 * builds, the folder AT_TEST_NVIDIA names where it is set). */
const char *at_nvidia_proc(void);
/* How many CUDA devices the driver reports (the driver loaded). */
int at_device_count(int *n, at_err *e);
void at_device_close(at_device *d);
at_limits at_device_limits(const at_device *d);
/* Makes d's context current for the calling thread (pairs with pop). */
int at_device_push(const at_device *d, at_err *e);
void at_device_pop(void);

/* A process-wide pool of big host buffers for a measurement's inputs and
 * references (measure_cases.c). An estimate on a cache miss fills and
 * uploads a problem's worth of them each call: fresh mallocs paid their
 * first-touch page faults every time and uploaded pageable at a few GB/s.
 * Pooled buffers are already resident, are 2 MiB aligned with transparent
 * huge pages asked for, and are page-locked (cuMemHostRegister) under the
 * context current when taken, so uploads from them run at DMA speed.
 * Registration is an optimisation only: without a driver (the CPU tests),
 * with no context current, or when it fails, buffers are used pageable.
 * Thread-safe. */

/* Idle buffers kept, in bytes: the input and the reference of a 256 MiB
 * problem, the biggest an application's estimate path commonly sees.
 * Buffers given back beyond it are freed at once (the least recently
 * given idle ones first, so that the sizes in use now stay). */
#define AT_HOST_POOL_MAX ((size_t)512 << 20)

/* A buffer of at least bytes, whose contents are undefined: the smallest
 * idle one that fits, else a fresh one. NULL with AUTOTUNE_ENOMEM in e on
 * failure. If the driver is loaded and a context is current, a buffer
 * the pool could keep (within AT_HOST_POOL_MAX) is registered under that
 * context (again if it was registered under another one: a registration
 * dies with its context). */
void *at_host_take(size_t bytes, at_err *e);

/* Gives p (from at_host_take) back: kept idle within AT_HOST_POOL_MAX,
 * else unregistered and freed. NULL is a no-op. */
void at_host_give(void *p);

/* Frees every idle buffer, unregistering it under the context current
 * (or, with none current, the one it was registered under). Called by
 * autotune_destroy before it releases its context, while registrations
 * made under it can still be undone. */
void at_host_pool_trim(void);

/* The idle buffers and their bytes now (either pointer may be NULL): for
 * the tests. */
void at_host_pool_idle(size_t *buffers, size_t *bytes);

/* NVRTC compilation of one expanded source to a cubin, and a pool of
 * compile workers that compiles submitted jobs while the caller times
 * earlier ones: each worker is a thread of the pool driving a worker
 * process of its own (compile_proc.h). */

enum { AT_EXTRA_OPTIONS = 512, AT_MAX_EXTRA_ARGS = 32 };

/* In at_compile_opts.extra: compile with the CUDA toolkit's headers (the
 * include folders beside NVRTC, <cub/cub.cuh> as CUB's device-side part)
 * for a user's kernel that includes them. Not an NVRTC option; in the
 * options text, so in the compiled-variant cache's key (with NVRTC's
 * version, which the toolkit's headers go with). */
#define AT_TOOLKIT_OPTION "--autotune-toolkit-headers=1"

/* How to compile: the target, a time limit and further options. */
typedef struct at_compile_opts {
    int sm;         /* 90 -> sm_90 */
    double limit_s; /* per program; <= 0: none */
    /* Further NVRTC options, separated by spaces (a family's own: a
     * spec's options); part of the options text, so of cache keys. */
    char extra[AT_EXTRA_OPTIONS];
} at_compile_opts;

struct at_family;
/* The extra options a family's variants are compiled with: its NVRTC
 * options, and AT_TOOLKIT_OPTION where it may include the toolkit's
 * headers. */
void at_compile_family_extra(const struct at_family *f, char *buf,
                             size_t n);

/* The options NVRTC gets that shape the code, as one string (cache keys):
 * "--gpu-architecture=sm_90 --std=c++17". */
void at_compile_options_text(const at_compile_opts *o, char *buf, size_t n);

/* Compiles src. On success *cubin is malloc'd. On a compile error:
 * AUTOTUNE_ECOMPILE with the variant and the first lines of the NVRTC log;
 * past the time limit: AUTOTUNE_ECOMPILE saying so. */
int at_compile(const char *src, const char *variant, const at_compile_opts *o,
               void **cubin, size_t *size, at_err *e);

/* A host's NVRTC speed (compile_calibrate.c): src compiled for sm_<sm> by
 * procs processes at once, `each` times in each; cpu_s is theirs in all. */
typedef struct at_calibration {
    int procs, compiles;
    double wall_s, cpu_s;
} at_calibration;
int at_compile_calibrate(const char *src, int sm, int procs, int each,
                         at_calibration *c, at_err *e);

typedef struct at_job {
    /* in: set by the caller before submitting; src is owned by the job */
    char *src;
    char variant[128];
    at_compile_opts opts;
    size_t index;   /* the caller's */
    int src_cached; /* the caller's: cubin came from a cache, not NVRTC */
    /* out: valid after at_pool_wait */
    int rc;
    at_err err;
    void *cubin;
    size_t size;
    double ms;
    /* pool's */
    int done;
    struct at_job *next;
} at_job;

/* Compile slots shared by the GPU workers of a host (compile_slots.c):
 * at_slots_share, before GPU workers are started, makes n slots their
 * pools take (through the environment, inherited); a pool thread holds
 * one for each compile. Without shared slots every take is free. */
int at_slots_share(int n, at_err *e);
typedef struct at_slot {
    int fd, n, held;
} at_slot;
/* 1 if the process has shared slots (s to be closed), else 0. */
int at_slot_open(at_slot *s);
/* Waits for a slot (hint: where to start looking). */
void at_slot_take(at_slot *s, int hint);
void at_slot_give(at_slot *s);
void at_slot_close(at_slot *s);

typedef struct at_pool at_pool;

/* threads: compile workers (<= 0: the online processors), each with a
 * worker process of its own (compile_proc.h): NVRTC never runs in this
 * process. */
int at_pool_create(at_pool **p, int threads, at_err *e);
/* The workers a pool made with threads <= 0 has. */
int at_pool_default_workers(void);
int at_pool_workers(const at_pool *p);
/* Workers with nothing to do now (0 while jobs wait in the queue). */
int at_pool_idle(at_pool *p);
/* The process id of worker i's compile process (0: none now). */
int at_pool_worker_pid(at_pool *p, int i);
void at_pool_submit(at_pool *p, at_job *j);
void at_pool_wait(at_pool *p, at_job *j);
/* Drops the jobs not yet started: they are marked done with
 * rc = AUTOTUNE_EINVALID. Running ones finish (wait for them). */
void at_pool_cancel(at_pool *p);
/* Cancels queued jobs, ends running ones (their worker processes are
 * killed: the jobs fail), joins the threads. */
void at_pool_destroy(at_pool *p);
/* Frees a job's source and cubin (not the job itself). */
void at_job_release(at_job *j);

#endif
