/* The family conformance test: what every entry of the family table must
 * satisfy, run over each (a new family gets it for free). Its default
 * problem is valid for every type; the space is not empty for any known
 * architecture; every point's name tells it apart and its parameters parse
 * back to it; the default point passes the constraints everywhere; the
 * problem's key text round-trips; the check problems are valid; the
 * default point's emitted .cu builds with nvcc. The example specs join
 * the table first, so a family made at run time meets it too. */
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/emit.h"
#include "gen/family.h"
#include "spec/spec.h"
#include "runtime/measure/measure.h"

/* The architectures of AT_KNOWN_ARCHS. */
static int archs(int *sm, int max)
{
    int n = 0;
    for (const char *s = AT_KNOWN_ARCHS; *s && n < max;) {
        char *end;
        sm[n++] = (int)strtol(s, &end, 10);
        s = end + strspn(end, ", ");
    }
    return n;
}

static at_problem default_problem(const at_family *f, const at_type *t)
{
    at_problem p;
    at_err e = {0};
    if (at_problem_begin(&p, f->name, t->name, &e) ||
        at_problem_finish(&p, &e))
        fail_msg("%s %s: the default problem: %s", f->name, t->name, e.msg);
    return p;
}

static void entries_are_complete(void **state)
{
    (void)state;
    for (int i = 0; at_family_at(i); ++i) {
        const at_family *f = at_family_at(i);
        assert_ptr_equal(at_family_find(f->name), f);
        assert_non_null(f->template_src);
        assert_true(f->n_fields > 0 && f->n_fields <= AT_MAX_FIELDS);
        assert_true(f->n_axes > 0 && f->n_axes <= AT_MAX_AXES);
        assert_true(f->n_checks >= 0 && f->n_checks <= AT_MAX_CHECKS);
        /* Filled when looked up: every hook there (a MAY one its
         * default), so generic code calls each as it is. */
        const at_family_ops *o = &f->ops;
        assert_true(f->filled);
        assert_true(o->finish && o->describe && o->file_stem && o->valid &&
                    o->point_name && o->default_point && o->paths &&
                    o->paths_text && o->defines && o->launch &&
                    o->workspace && o->args && o->user_arg_count &&
                    o->user_args && o->scope && o->input &&
                    o->reference_parts && o->reference &&
                    o->verify_kernel && o->tolerance && o->check_problem &&
                    o->where && o->ref_source && o->ref_launch &&
                    o->ref_bounds && o->init_source && o->init_launch &&
                    o->init_args && o->check_segments && o->copies &&
                    o->bytes_moved && o->copy_bytes && o->flops &&
                    o->emit_launcher && o->usage);
        assert_true(f->meaning && f->nvrtc_options && f->origin.path &&
                    f->origin.text && f->origin.source && f->origin.dir);
        /* A built-in family verifies on the CPU and takes (in, out); a
         * spec's, on the device or not at all. */
        if (!at_spec_of(f)) {
            assert_true(f->caps & AT_CAP_CPU_REFERENCE);
            assert_false(f->caps & AT_CAP_DEVICE_REFERENCE);
            assert_int_equal(o->user_arg_count(NULL), 2);
        } else {
            assert_false(f->caps & AT_CAP_CPU_REFERENCE);
        }
        for (int k = 0; k < f->n_fields; ++k) {
            assert_int_equal(at_field_index(f, f->fields[k].name), k);
            assert_true(f->fields[k].min <= f->fields[k].max);
        }
    }
}

/* Names tell points apart, parameters give the point back, and the
 * default point passes the constraints, for every type and architecture. */
static void spaces_names_and_defaults(void **state)
{
    (void)state;
    int sm[16], n_sm = archs(sm, 16);
    for (int i = 0; at_family_at(i); ++i) {
        const at_family *f = at_family_at(i);
        for (int t = 0; at_type_at(t); ++t) {
            if (!at_family_takes(f, at_type_at(t)))
                continue;
            at_problem p = default_problem(f, at_type_at(t));
            for (int a = 0; a < n_sm; ++a) {
                at_limits l;
                assert_true(at_limits_for_arch(sm[a], &l));
                at_point *pts, dflt;
                size_t n;
                at_err e = {0};
                assert_int_equal(at_space_points(f, &p, &l, &pts, &n, &e), 0);
                if (n == 0)
                    fail_msg("%s %s sm_%d: empty space", f->name,
                             at_type_at(t)->name, sm[a]);
                f->ops.default_point(&p, sm[a], &dflt);
                char why[256] = "";
                if (!f->ops.valid(&p, &dflt, &l, why, sizeof why))
                    fail_msg("%s %s sm_%d: default point invalid: %s",
                             f->name, at_type_at(t)->name, sm[a], why);
                char (*names)[128] = malloc(n * sizeof *names);
                assert_non_null(names);
                for (size_t k = 0; k < n; ++k) {
                    char params[256];
                    at_point back;
                    f->ops.point_name(f, &pts[k], names[k], sizeof names[k]);
                    at_point_params(f, &pts[k], params, sizeof params);
                    assert_int_equal(at_point_parse(f, params, &back, &e), 0);
                    assert_memory_equal(back.v, pts[k].v, sizeof back.v);
                }
                qsort(names, n, sizeof *names,
                      (int (*)(const void *, const void *))strcmp);
                for (size_t k = 1; k < n; ++k)
                    if (strcmp(names[k - 1], names[k]) == 0)
                        fail_msg("%s: two points named %s", f->name,
                                 names[k]);
                free(names);
                free(pts);
            }
        }
    }
}

/* A problem's key text makes the same problem again. */
static void round_trip(const at_problem *p)
{
    char text[512], again[512];
    at_problem q;
    at_err e = {0};
    at_problem_key_text(p, text, sizeof text);
    if (at_problem_make(&q, p->family->name, p->type->name, text, &e))
        fail_msg("%s: key text '%s' does not parse: %s", p->family->name,
                 text, e.msg);
    at_problem_key_text(&q, again, sizeof again);
    assert_string_equal(text, again);
    assert_true(at_problem_equal(p, &q));
    assert_int_equal(p->in_bytes, q.in_bytes);
    assert_int_equal(p->out_bytes, q.out_bytes);
}

static void key_text_and_checks(void **state)
{
    (void)state;
    for (int i = 0; at_family_at(i); ++i) {
        const at_family *f = at_family_at(i);
        for (int t = 0; at_type_at(t); ++t) {
            if (!at_family_takes(f, at_type_at(t)))
                continue;
            at_problem p = default_problem(f, at_type_at(t));
            round_trip(&p);
            for (int k = 0; k < f->n_checks; ++k) {
                at_problem c;
                const char *label = NULL;
                at_err e = {0};
                if (f->ops.check_problem(&p, k, &c, &label, &e))
                    fail_msg("%s check %d: %s", f->name, k, e.msg);
                assert_non_null(label);
                assert_ptr_equal(c.family, f);
                assert_ptr_equal(c.type, p.type);
                round_trip(&c);
            }
        }
    }
}

static void default_point_emission_builds(void **state)
{
    (void)state;
    const char *cuda = getenv("CUDA");
    char nvcc[512], dir[] = "/tmp/at-family-XXXXXX";
    snprintf(nvcc, sizeof nvcc, "%s/bin/nvcc",
             cuda && *cuda ? cuda : "/usr/local/cuda");
    if (access(nvcc, X_OK) != 0)
        fail_msg("no nvcc at %s (set CUDA to the toolkit's root)", nvcc);
    assert_non_null(mkdtemp(dir));
    for (int i = 0; at_family_at(i); ++i) {
        const at_family *f = at_family_at(i);
        /* f32, or the family's one type (a spec's: none) */
        at_problem p = default_problem(
            f, f->types && !strchr(f->types, ' ') ? at_type_find(f->types)
                                                  : at_type_find("f32"));
        at_point pt;
        f->ops.default_point(&p, 90, &pt);
        at_provenance pv = {.sm = 90, .why = "conformance test"};
        char cu[600], obj[600], cmd[2048];
        snprintf(cu, sizeof cu, "%s/%s.cu", dir, f->name);
        snprintf(obj, sizeof obj, "%s/%s.o", dir, f->name);
        at_err e = {0};
        if (at_emit(cu, &p, &pt, "conformance_launcher", &pv, &e))
            fail_msg("%s: %s", f->name, e.msg);
        snprintf(cmd, sizeof cmd, "%s -arch=sm_90 -c %s -o %s 2>&1", nvcc,
                 cu, obj);
        if (system(cmd) != 0)
            fail_msg("%s: the default point's .cu does not build", f->name);
        unlink(cu);
        unlink(obj);
    }
    rmdir(dir);
}

/* The example specs as families made at run time: the same conformance
 * holds for them (issue 15). */
static void load_specs(void)
{
    static const char *const names[] = {"vector_add", "convolution",
                                        "matmul", "stencil", "avg_matvec"};
    for (size_t i = 0; i < sizeof names / sizeof *names; ++i) {
        char path[512];
        const at_family *f;
        at_err e = {0};
        snprintf(path, sizeof path, "%s/kernels/%s/%s.yaml", AT_EXAMPLES,
                 names[i], names[i]);
        if (at_spec_family_load(path, &f, &e)) {
            fprintf(stderr, "%s\n", e.msg);
            exit(1);
        }
    }
}

int main(void)
{
    load_specs();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(entries_are_complete),
        cmocka_unit_test(spaces_names_and_defaults),
        cmocka_unit_test(key_text_and_checks),
        cmocka_unit_test(default_point_emission_builds),
    };
    return AT_RUN_TESTS(tests);
}
