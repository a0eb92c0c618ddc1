/* The host's memo of its GPUs' facts, so that a cache hit in a new
 * process needs no driver: cuInit alone took 0.10 to 0.25 s on H100
 * leases, most of a hit's wall. One line a GPU, keyed by its UUID and
 * the kernel module's version:
 *   UUID BUILD DRIVER_VERSION CC_MAJOR CC_MINOR SMS L2 MAX_THREADS
 *   MAX_SMEM_OPTIN CLOCK_KHZ TOTAL_MEM NAME
 * It answers only where it cannot be wrong about the GPU a CUDA ordinal
 * is, and is the user's own (as the cache must be):
 * CUDA_VISIBLE_DEVICES unset, no MIG instance and no GPU excluded,
 * every GPU the kernel module lists (/proc/driver/nvidia/gpus)
 * remembered under the module's running version, all with the same
 * facts (so whichever the driver numbers first has them). Else the
 * device is opened whole and the memo brought up to date. A process that
 * then needs the device (a tune, a launch) loads the driver and checks
 * it is the one remembered (at_device_resolve). */
#include "runtime/driver/driver.h"

#include <dirent.h>
#include <glob.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/readfile.h"
#include "base/safefile.h"

enum { MAX_GPUS = 64, MAX_LINES = 256, LINE = 512 };

/* The memo's readers and writers of this process, one at a time (they
 * share the buffers below). */
static pthread_mutex_t memo_mu = PTHREAD_MUTEX_INITIALIZER;
static char module_uuid[MAX_GPUS][48];
static at_device lines[MAX_LINES];

/* GPU instances exist: CUDA's devices are then MIG slices, not GPUs. */
static int mig_instances(void)
{
    glob_t g;
    char pattern[1100];
    snprintf(pattern, sizeof pattern, "%s/capabilities/gpu*/mig/gi*",
             at_nvidia_proc());
    int found = glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0;
    globfree(&g);
    return found;
}

/* The UUIDs of the GPUs the kernel module lists; -1 where one cannot be
 * read or is excluded from CUDA. */
static int module_gpus(char uuid[][48], int max)
{
    char root[1100];
    snprintf(root, sizeof root, "%s/gpus", at_nvidia_proc());
    DIR *dir = opendir(root);
    if (!dir)
        return 0;
    int n = 0;
    const struct dirent *de;
    while (n >= 0 && (de = readdir(dir)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char path[1400], line[256];
        snprintf(path, sizeof path, "%s/%s/information", root, de->d_name);
        FILE *f = n < max ? fopen(path, "r") : NULL;
        if (!f) {
            n = -1;
            break;
        }
        int excluded = 0;
        uuid[n][0] = '\0';
        while (fgets(line, sizeof line, f)) {
            if (!strncmp(line, "GPU UUID:", 9))
                sscanf(line + 9, "%47s", uuid[n]);
            else if (!strncmp(line, "GPU Excluded:", 13) &&
                     strstr(line + 13, "Yes"))
                excluded = 1;
        }
        fclose(f);
        n = uuid[n][0] && !excluded ? n + 1 : -1;
    }
    closedir(dir);
    return n;
}

static int parse(const char *line, at_device *d)
{
    int used = 0;
    memset(d, 0, sizeof *d);
    if (sscanf(line, "%47s %31s %d %d %d %d %d %d %d %d %zu %n", d->uuid,
               d->driver_build, &d->driver_version, &d->cc_major, &d->cc_minor,
               &d->sms, &d->l2_bytes, &d->max_threads, &d->max_smem_optin,
               &d->clock_khz, &d->total_mem, &used) != 11 || !used)
        return 0;
    snprintf(d->name, sizeof d->name, "%.*s", (int)strcspn(line + used, "\n"),
             line + used);
    d->sm = d->cc_major * 10 + d->cc_minor;
    return d->name[0] && d->sm > 0 && d->sms > 0;
}

static void format(const at_device *d, char *buf, size_t n)
{
    snprintf(buf, n, "%s %s %d %d %d %d %d %d %d %d %zu %s\n", d->uuid,
             d->driver_build, d->driver_version, d->cc_major, d->cc_minor,
             d->sms, d->l2_bytes, d->max_threads, d->max_smem_optin,
             d->clock_khz, d->total_mem, d->name);
}

static int same_facts(const at_device *a, const at_device *b)
{
    return a->driver_version == b->driver_version && a->sm == b->sm &&
           a->sms == b->sms && a->l2_bytes == b->l2_bytes &&
           a->max_threads == b->max_threads &&
           a->max_smem_optin == b->max_smem_optin &&
           a->clock_khz == b->clock_khz && a->total_mem == b->total_mem &&
           !strcmp(a->name, b->name);
}

/* The memo's lines (at most MAX_LINES); its text in *text (NULL where
 * there is none). */
static int load(const char *path, at_device *x, char **text)
{
    size_t len;
    at_err e = {0};
    *text = NULL;
    if (at_read_file_max(path, MAX_LINES * LINE, text, &len, &e))
        return 0;
    int n = 0;
    for (const char *l = *text; *l && n < MAX_LINES;) {
        n += parse(l, &x[n]);
        const char *nl = strchr(l, '\n');
        l = nl ? nl + 1 : l + strlen(l);
    }
    return n;
}

/* The memo and its folder are this user's and writable by no one else
 * (as the cache's must be): a memo planted by another would name the GPU
 * the cache is searched for. */
static int trusted(const char *path)
{
    char dir[AT_PATH_MAX];
    struct stat st, sd;
    at_path_dir(path, dir, sizeof dir);
    return stat(path, &st) == 0 && stat(dir, &sd) == 0 &&
           S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
           sd.st_uid == geteuid() &&
           !((st.st_mode | sd.st_mode) & (S_IWGRP | S_IWOTH));
}

static int remembered(at_device *d, int ordinal, const char *path)
{
    at_device *x = lines;
    char build[32];
    at_driver_build(build, sizeof build);
    if (getenv("CUDA_VISIBLE_DEVICES") || !strcmp(build, "unknown") ||
        mig_instances() || !trusted(path))
        return 0;
    pthread_mutex_lock(&memo_mu);
    char *text;
    int gpus = module_gpus(module_uuid, MAX_GPUS), n = load(path, x, &text);
    free(text);
    const at_device *first = NULL;
    int ok = gpus > 0 && ordinal >= 0 && ordinal < gpus;
    for (int i = 0; ok && i < gpus; ++i) {
        const at_device *hit = NULL;
        for (int j = 0; j < n && !hit; ++j)
            if (!strcmp(x[j].uuid, module_uuid[i]) &&
                !strcmp(x[j].driver_build, build))
                hit = &x[j];
        ok = hit && (!first || same_facts(first, hit));
        first = hit;
    }
    if (ok) {
        *d = *first;
        d->ordinal = ordinal;
        d->visible = gpus;
        d->uuid[0] = '\0'; /* which of them it is, the driver says */
        d->lazy = 1;
    }
    pthread_mutex_unlock(&memo_mu);
    return ok;
}

/* Every GPU the driver reports, in the memo at path, with the lines of
 * others kept (a home folder may be shared by hosts). Best effort: a memo
 * not written costs the next hit the driver's start, nothing else. */
static void remember(const char *path)
{
    at_device *x = lines;
    int count = 0;
    if (at_cu.cuDeviceGetCount(&count) != CUDA_SUCCESS || count < 1 ||
        count > MAX_GPUS)
        return;
    pthread_mutex_lock(&memo_mu);
    char *old;
    int n = load(path, x, &old);
    size_t cap = (size_t)(n + count) * LINE + 1, used = 0;
    char *text = malloc(cap), line[LINE];
    at_device now[MAX_GPUS];
    int ok = text != NULL;
    for (int i = 0; ok && i < count; ++i) {
        at_err e = {0};
        ok = at_device_facts(&now[i], i, &e) == 0;
    }
    for (int j = 0; ok && j < n; ++j) {
        int replaced = 0;
        for (int i = 0; i < count; ++i)
            replaced |= !strcmp(x[j].uuid, now[i].uuid);
        format(&x[j], line, sizeof line);
        if (!replaced)
            used += (size_t)snprintf(text + used, cap - used, "%s", line);
    }
    for (int i = 0; ok && i < count; ++i) {
        format(&now[i], line, sizeof line);
        used += (size_t)snprintf(text + used, cap - used, "%s", line);
    }
    at_safefile s;
    at_err e = {0};
    if (ok && (!old || strcmp(old, text)) && !at_safefile_open(&s, path, &e)) {
        fputs(text, s.f);
        at_safefile_commit(&s, &e);
    }
    pthread_mutex_unlock(&memo_mu);
    free(old);
    free(text);
}

/* The memo a lazy device came from, for at_device_resolve to correct. */
static char memo_path[AT_PATH_MAX];

int at_device_open_remembered(at_device *d, int ordinal, const char *path,
                              at_err *e)
{
    memset(d, 0, sizeof *d);
    if (path && strlen(path) < sizeof memo_path &&
        remembered(d, ordinal, path)) {
        snprintf(memo_path, sizeof memo_path, "%s", path);
        int rc = at_nvrtc_load(e);
        if (!rc)
            snprintf(d->nvrtc, sizeof d->nvrtc, "%s", at_nvrtc_version_str());
        return rc;
    }
    int rc = at_device_open(d, ordinal, e);
    if (!rc && path)
        remember(path);
    return rc;
}

int at_device_resolve(at_device *d, at_err *e)
{
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    if (!__atomic_load_n(&d->lazy, __ATOMIC_ACQUIRE))
        return 0;
    pthread_mutex_lock(&mu);
    int rc = 0;
    if (d->lazy) {
        at_device real;
        rc = at_cu_load(e);
        if (!rc)
            rc = at_device_facts(&real, d->ordinal, e);
        if (!rc && !same_facts(&real, d)) {
            /* Remembered wrong (a setting changed under the same driver):
             * what was planned from it may be too, so the call fails;
             * the memo now says what the driver does. */
            rc = at_fail(e, AUTOTUNE_ENO_DEVICE,
                         "CUDA device %d is %s (sm_%d, %d SMs), not as %s "
                         "remembered it (%s, sm_%d, %d SMs); it is "
                         "corrected: run again",
                         d->ordinal, real.name, real.sm, real.sms, memo_path,
                         d->name, d->sm, d->sms);
            remember(memo_path);
        }
        if (!rc) {
            snprintf(real.nvrtc, sizeof real.nvrtc, "%s", d->nvrtc);
            real.lazy = 1; /* until every other field is in place */
            *d = real;
            __atomic_store_n(&d->lazy, 0, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&mu);
    return rc;
}
