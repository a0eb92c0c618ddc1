/* The host's memo of its GPUs' facts, so that a cache hit in a new
 * process needs no driver: cuInit alone took 0.10 to 0.34 s on H100
 * leases, most of a hit's wall. One line a GPU, keyed by its UUID, the
 * kernel module's version and the driver library's file:
 *   UUID BUILD LIBRARY DRIVER_VERSION CC_MAJOR CC_MINOR SMS L2
 *   MAX_THREADS MAX_SMEM_OPTIN CLOCK_KHZ TOTAL_MEM NAME
 * It answers only where it cannot be wrong about the GPU a CUDA ordinal
 * is, and is the user's own (as the cache must be):
 * CUDA_VISIBLE_DEVICES unset, no MIG instance and no GPU excluded,
 * every GPU the kernel module lists (/proc/driver/nvidia/gpus)
 * remembered under the module's running version and the library the
 * driver would load now, all with the same facts (so whichever the
 * driver numbers first has them). Else the device is opened whole and
 * the memo brought up to date. A process that then needs the device (a
 * tune, a launch) loads the driver and checks it is the one remembered
 * (at_device_resolve). Known edge: the module's count bounds the
 * ordinal, not CUDA's, so a GPU the module lists and CUDA cannot open
 * (cgroups, a fault) still answers a hit, with the facts of its kind. */
#include "runtime/driver/driver.h"

#include <ctype.h>
#include <dirent.h>
#include <glob.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/readfile.h"
#include "base/safefile.h"

enum { MAX_GPUS = 64, MAX_LINES = 1024, LINE = 512 };

typedef struct memo_line {
    at_device d; /* uuid, driver_build, name and the numbers */
    char lib[64]; /* at_cu_library_id's */
} memo_line;

/* The memo's readers and writers of this process, one at a time (they
 * share the buffers below). */
static pthread_mutex_t memo_mu = PTHREAD_MUTEX_INITIALIZER;
static char module_uuid[MAX_GPUS][48];
static memo_line lines[MAX_LINES];

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

/* One line (up to its newline) into x; 0 if it is not one of ours. */
static int parse(const char *text, memo_line *x)
{
    char line[LINE];
    size_t len = strcspn(text, "\n");
    at_device *d = &x->d;
    int used = 0;
    memset(x, 0, sizeof *x);
    if (len >= sizeof line)
        return 0;
    memcpy(line, text, len);
    line[len] = '\0';
    if (sscanf(line, "%47s %31s %63s %d %d %d %d %d %d %d %d %zu %n",
               d->uuid, d->driver_build, x->lib, &d->driver_version,
               &d->cc_major, &d->cc_minor, &d->sms, &d->l2_bytes,
               &d->max_threads, &d->max_smem_optin, &d->clock_khz,
               &d->total_mem, &used) != 12 || !used)
        return 0;
    snprintf(d->name, sizeof d->name, "%s", line + used);
    d->sm = d->cc_major * 10 + d->cc_minor;
    return d->name[0] && d->cc_major > 0 && d->cc_minor >= 0 && d->sms > 0 &&
           d->max_threads > 0 && d->max_smem_optin > 0;
}

static void format(const memo_line *x, char *buf, size_t n)
{
    const at_device *d = &x->d;
    snprintf(buf, n, "%s %s %s %d %d %d %d %d %d %d %d %zu %s\n", d->uuid,
             d->driver_build, x->lib, d->driver_version, d->cc_major,
             d->cc_minor, d->sms, d->l2_bytes, d->max_threads,
             d->max_smem_optin, d->clock_khz, d->total_mem, d->name);
}

/* What a cache key or a space reads of a device (runtime/store/key.c). */
static int same_key_facts(const at_device *a, const at_device *b)
{
    return a->driver_version == b->driver_version && a->sm == b->sm &&
           a->sms == b->sms && a->max_threads == b->max_threads &&
           a->max_smem_optin == b->max_smem_optin &&
           !strcmp(a->name, b->name);
}

static int same_facts(const at_device *a, const at_device *b)
{
    return same_key_facts(a, b) && a->l2_bytes == b->l2_bytes &&
           a->clock_khz == b->clock_khz && a->total_mem == b->total_mem;
}

/* The memo's lines (at most MAX_LINES); its text in *text (NULL where
 * there is none). */
static int load(const char *path, memo_line *x, char **text)
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
           S_ISREG(st.st_mode) && at_stat_mine_alone(&st) &&
           at_stat_mine_alone(&sd);
}

static int remembered(at_device *d, int ordinal, const char *path)
{
    char build[32], lib[64];
    at_driver_build(build, sizeof build);
    if (getenv("CUDA_VISIBLE_DEVICES") || !strcmp(build, "unknown") ||
        mig_instances() || !trusted(path) ||
        at_cu_library_id(lib, sizeof lib))
        return 0;
    pthread_mutex_lock(&memo_mu);
    char *text;
    int gpus = module_gpus(module_uuid, MAX_GPUS);
    int n = load(path, lines, &text);
    free(text);
    const at_device *first = NULL;
    int ok = gpus > 0 && ordinal >= 0 && ordinal < gpus;
    for (int i = 0; ok && i < gpus; ++i) {
        const at_device *hit = NULL;
        for (int j = 0; j < n && !hit; ++j)
            if (!strcmp(lines[j].d.uuid, module_uuid[i]) &&
                !strcmp(lines[j].d.driver_build, build) &&
                !strcmp(lines[j].lib, lib))
                hit = &lines[j].d;
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
 * other GPUs kept, the oldest dropped past MAX_LINES. Written 0600
 * whatever the umask (trusted() must accept it). Best effort: a memo not
 * written costs the next hit the driver's start, nothing else. */
static void remember(const char *path)
{
    int count = 0;
    if (at_cu.cuDeviceGetCount(&count) != CUDA_SUCCESS || count < 1 ||
        count > MAX_GPUS)
        return;
    static memo_line now[MAX_GPUS];
    pthread_mutex_lock(&memo_mu);
    char *old;
    int n = load(path, lines, &old), ok = 1;
    char lib[64] = "-";
    at_cu_library_id(lib, sizeof lib);
    for (int i = 0; ok && i < count; ++i) {
        at_err e = {0};
        ok = at_device_facts(&now[i].d, i, &e) == 0;
        snprintf(now[i].lib, sizeof now[i].lib, "%s", lib);
    }
    size_t cap = (size_t)MAX_LINES * LINE + 1, used = 0;
    char *text = ok ? malloc(cap) : NULL, line[LINE];
    static char keep_it[MAX_LINES];
    int keep = MAX_LINES - count, kept = 0;
    for (int j = n - 1; j >= 0; --j) { /* newest last: count back */
        int replaced = 0;
        for (int i = 0; i < count; ++i)
            replaced |= !strcmp(lines[j].d.uuid, now[i].d.uuid);
        keep_it[j] = !replaced && kept < keep;
        kept += keep_it[j];
    }
    for (int j = 0; text && j < n; ++j)
        if (keep_it[j]) {
            format(&lines[j], line, sizeof line);
            used += (size_t)snprintf(text + used, cap - used, "%s", line);
        }
    for (int i = 0; text && i < count; ++i) {
        format(&now[i], line, sizeof line);
        used += (size_t)snprintf(text + used, cap - used, "%s", line);
    }
    at_safefile s;
    at_err e = {0};
    if (text && (!old || strcmp(old, text) || !trusted(path)) &&
        !at_safefile_open(&s, path, &e)) {
        fchmod(fileno(s.f), 0600);
        fputs(text, s.f);
        at_safefile_commit(&s, &e);
    }
    pthread_mutex_unlock(&memo_mu);
    free(old);
    free(text);
}

void at_device_memo_name(char *buf, size_t n)
{
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    for (char *c = host; *c; ++c) /* a file name's characters alone */
        if (!isalnum((unsigned char)*c) && *c != '.' && *c != '-')
            *c = '_';
    snprintf(buf, n, "devices-%s.txt", host);
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
        const int differs = !rc && !same_facts(&real, d);
        if (!rc && !same_key_facts(&real, d))
            /* Remembered wrong in what a cache key reads (a setting
             * changed under the same driver): what was planned from it
             * may be too, so the call fails; the memo now says what the
             * driver does. */
            rc = at_fail(e, AUTOTUNE_ENO_DEVICE,
                         "CUDA device %d is %s (sm_%d, %d SMs, CUDA %d), "
                         "not as %s remembered it (%s, sm_%d, %d SMs, "
                         "CUDA %d); it is corrected: run again",
                         d->ordinal, real.name, real.sm, real.sms,
                         real.driver_version, memo_path, d->name, d->sm,
                         d->sms, d->driver_version);
        if (differs) /* (another L2, clock or memory alone: quietly) */
            remember(memo_path);
        if (!rc) {
            snprintf(real.nvrtc, sizeof real.nvrtc, "%s", d->nvrtc);
            /* Every field but lazy, then lazy: a thread that sees it 0
             * sees them. */
            memcpy(d, &real, offsetof(at_device, lazy));
            __atomic_store_n(&d->lazy, 0, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&mu);
    return rc;
}
