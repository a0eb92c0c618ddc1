/* --data DIR (autotune kernel SPEC): a spec's problem's data, made on the
 * GPU as a tune makes it (random inputs, the init kernel, the
 * reference), written for a harness that calls the emitted launcher as a
 * user would (tests/gpu/kt_harness.cu): DIR/manifest.txt (spec/spec_data.c
 * says its lines), DIR/in.bin (the packed input: every input buffer's and
 * constant's first contents) and DIR/ref.bin (the packed reference
 * output). */
#include "dump_data.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/pcg.h"
#include "base/safefile.h"
#include "errors.h"
#include "spec/spec.h"
#include "runtime/measure/measure.h"

static int write_file(const char *dir, const char *name, const void *data,
                      size_t n, at_err *e)
{
    char path[4200];
    at_safefile f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int rc = at_safefile_open(&f, path, e);
    if (rc)
        return rc;
    /* A short write shows as the stream's error: commit refuses it. */
    if (n)
        fwrite(data, 1, n, f.f);
    return at_safefile_commit(&f, e);
}

static int write_manifest(const char *dir, const at_problem *p,
                          const char *launcher, uint64_t seed, at_err *e)
{
    char *text = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&text, &n);
    if (!m)
        return at_fail(e, AUTOTUNE_ENOMEM, "the manifest");
    int rc = at_spec_manifest(p, launcher, m, e);
    fprintf(m, "seed %llu\n", (unsigned long long)seed);
    if (fclose(m) != 0 && !rc)
        rc = at_fail(e, AUTOTUNE_ENOMEM, "the manifest");
    if (!rc)
        rc = write_file(dir, "manifest.txt", text, n, e);
    free(text);
    return rc;
}

static int dump(const char *dir, const at_problem *p, const at_device *d,
                const char *launcher, at_err *e)
{
    uint64_t seed = at_pcg_fresh_seed();
    at_measure *b = NULL;
    unsigned char *in = malloc(p->in_bytes ? p->in_bytes : 1);
    unsigned char *ref = malloc(p->out_bytes ? p->out_bytes : 1);
    int rc = in && ref ? 0 : at_fail(e, AUTOTUNE_ENOMEM, "%zu + %zu bytes "
                                     "of data", p->in_bytes, p->out_bytes);
    if (!rc && mkdir(dir, 0700) != 0 && errno != EEXIST)
        rc = at_fail(e, AUTOTUNE_EIO, "mkdir %s: %s", dir, strerror(errno));
    if (!rc)
        rc = at_device_push(d, e);
    if (!rc) {
        rc = at_measure_create(&b, d, p, seed, 0, NULL, e);
        if (!rc)
            rc = at_measure_problem_data(b, in, ref, e);
        at_measure_destroy(b);
        at_device_pop();
    }
    if (!rc)
        rc = write_file(dir, "in.bin", in, p->in_bytes, e);
    if (!rc)
        rc = write_file(dir, "ref.bin", ref, p->out_bytes, e);
    if (!rc)
        rc = write_manifest(dir, p, launcher, seed, e);
    free(in);
    free(ref);
    return rc;
}

int at_dump_data(const char *dir, const at_problem *p, const at_device *d,
                 const char *launcher, FILE *info)
{
    at_err e = {0};
    if (!d) {
        at_cli_say("--data: the data are made on a GPU, and there is none "
                   "here\n");
        return 1;
    }
    if (dump(dir, p, d, launcher, &e)) {
        at_err_prefix(&e, "--data %s: ", dir);
        at_cli_fail(&e);
        return 1;
    }
    fprintf(info, "  data for a harness in %s (manifest.txt, in.bin, "
            "ref.bin)\n", dir);
    return 0;
}
