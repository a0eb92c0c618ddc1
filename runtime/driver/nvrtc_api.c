#include "runtime/driver/driver.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/dl.h"

at_nvrtc_api at_nvrtc;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static at_err load_err;
static char version[32] = "unknown";
static char include_dir[PATH_MAX];

static void *try_open(char *tried, size_t n)
{
    const char *env = getenv("AUTOTUNE_NVRTC");
    const char *cuda_home = getenv("CUDA_HOME");
    char home_path[512] = "";
    if (cuda_home && *cuda_home)
        snprintf(home_path, sizeof home_path, "%s/lib64/libnvrtc.so.13",
                 cuda_home);
    const char *candidates[] = {
        env && *env ? env : NULL,
        "libnvrtc.so.13",
        home_path[0] ? home_path : NULL,
        "/usr/local/cuda/lib64/libnvrtc.so.13",
        "libnvrtc.so.12",
        "/usr/local/cuda/lib64/libnvrtc.so.12",
        "libnvrtc.so",
    };
    return at_dl_open_first(candidates,
                            sizeof candidates / sizeof candidates[0], tried,
                            n);
}

/* The include folder of the toolkit the loaded NVRTC belongs to (its
 * library's folder's parent's include/, links resolved), else
 * $CUDA_HOME/include, else /usr/local/cuda/include: where cuda_runtime.h
 * is. */
static void find_include(void)
{
    Dl_info info;
    char lib[PATH_MAX], probe[PATH_MAX + 32];
    const char *cuda_home = getenv("CUDA_HOME");
    if (dladdr((void *)at_nvrtc.nvrtcVersion, &info) && info.dli_fname &&
        realpath(info.dli_fname, lib)) {
        for (int up = 0; up < 2; ++up) {
            char *slash = strrchr(lib, '/');
            if (slash)
                *slash = '\0';
        }
        snprintf(probe, sizeof probe, "%s/include/cuda_runtime.h", lib);
        if (access(probe, R_OK) == 0) {
            snprintf(include_dir, sizeof include_dir, "%s/include", lib);
            return;
        }
    }
    snprintf(probe, sizeof probe, "%s/include/cuda_runtime.h",
             cuda_home && *cuda_home ? cuda_home : "/usr/local/cuda");
    if (access(probe, R_OK) == 0)
        snprintf(include_dir, sizeof include_dir, "%s/include",
                 cuda_home && *cuda_home ? cuda_home : "/usr/local/cuda");
}

const char *at_nvrtc_include_dir(void)
{
    return include_dir[0] ? include_dir : NULL;
}

#define AT_STR2_(x) #x
#define AT_STR_(x) AT_STR2_(x)

static void load(void)
{
    char tried[1024];
    void *h = try_open(tried, sizeof tried);
    if (!h) {
        at_fail(&load_err, AUTOTUNE_ENO_NVRTC,
                "NVRTC not found (%s; set AUTOTUNE_NVRTC to its path)",
                tried);
        return;
    }
#define AT_NVRTC_SYM_(fn)                                                    \
    at_nvrtc.fn = (__typeof__(fn) *)at_dl_sym(h, AT_STR_(fn));                   \
    if (!at_nvrtc.fn) {                                                      \
        at_fail(&load_err, AUTOTUNE_ENO_NVRTC, "NVRTC lacks %s",             \
                AT_STR_(fn));                                                \
        return;                                                              \
    }
    AT_NVRTC_FUNCS(AT_NVRTC_SYM_)
#undef AT_NVRTC_SYM_
    at_nvrtc.nvrtcSetFlowCallback = (__typeof__(nvrtcSetFlowCallback) *)at_dl_sym(
        h, "nvrtcSetFlowCallback");
    int major = 0, minor = 0;
    nvrtcResult r = at_nvrtc.nvrtcVersion(&major, &minor);
    if (r != NVRTC_SUCCESS) {
        at_fail(&load_err, AUTOTUNE_ENVRTC, "nvrtcVersion: %s (%d)",
                at_nvrtc.nvrtcGetErrorString(r), (int)r);
        return;
    }
    snprintf(version, sizeof version, "%d.%d", major, minor);
    find_include();
}

int at_nvrtc_load(at_err *e)
{
    pthread_once(&once, load);
    if (load_err.code) {
        if (e)
            *e = load_err;
        return load_err.code;
    }
    return 0;
}

const char *at_nvrtc_version_str(void) { return version; }
