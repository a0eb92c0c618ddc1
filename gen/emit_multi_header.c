/* The header comment of one .cu for many problems and architectures:
 * what it holds, how to build and call it, each kernel's point and
 * occupancy, each problem's provenance (emit_multi.c writes the rest). */
#include "emit_multi_impl.h"

#include "distance.h"
#include "emit.h"

int at_multi_min_blocks(const multi *m, int k)
{
    int b = 0;
    for (int i = 0; i < m->n; ++i) {
        if (m->kernel[i] != k)
            continue;
        const int mb = m->en[i].pv.min_blocks;
        if (mb < 2)
            return 0;
        b = b && b < mb ? b : mb;
    }
    return b;
}

int at_multi_max_regs(const multi *m, int k)
{
    int r = 0;
    for (int i = 0; i < m->n; ++i) {
        if (m->kernel[i] != k)
            continue;
        if (m->en[i].pv.regs <= 0)
            return 0;
        r = r > m->en[i].pv.regs ? r : m->en[i].pv.regs;
    }
    return r;
}

void at_multi_header(FILE *f, const multi *m, const char *command)
{
    const at_multi_entry *en = m->en;
    const at_family *fam = en[0].p.family;
    char text[2048], usage[512];
    at_emit_header_start(f, command);
    snprintf(text, sizeof text, "%s %s: %d problems on %d architectures, "
             "%d kernels", fam->name, en[0].p.type->name, m->n_order,
             m->n_archs, m->n_kernels);
    at_emit_line(f, "family:", text);
    at_emit_line(f, "template:", fam->template_path);
    size_t k = (size_t)snprintf(text, sizeof text, "nvcc");
    for (int a = 0; a < m->n_archs && k < sizeof text; ++a)
        k += (size_t)snprintf(text + k, sizeof text - k, " -gencode "
                              "arch=compute_%d,code=sm_%d", m->archs[a],
                              m->archs[a]);
    snprintf(text + k, sizeof text - k, "%s%s -c this.cu",
             *fam->nvrtc_options ? " " : "", fam->nvrtc_options);
    fprintf(f, " *\n");
    at_emit_line(f, "Build:", text);
    int top = m->archs[m->n_archs - 1];
    fprintf(f, " *           (add -gencode arch=compute_%d,code=compute_%d "
            "to run on later\n *           architectures through PTX)\n",
            top, top);
    fam->ops.usage(&en[0].p, m->name, usage, sizeof usage);
    at_emit_line(f, "Use:", usage);
    fprintf(f, " * Dispatch: a launch takes the kernels of the device's\n"
            " *           architecture (asked once per device), else of the\n"
            " *           nearest lower one here (below sm_%d: it returns\n"
            " *           cudaErrorNoKernelImageForDevice, or the device\n"
            " *           query's error); of those, the nearest tuned\n"
            " *           problem's (the first of equals) by gen/distance.h:\n"
            " *           the sum over number fields of |log2 a - log2 b|\n"
            " *           (below 1: 1), plus %g where their alignment\n"
            " *           classes (powers of two dividing the bytes, to 16)\n"
            " *           differ; where it refuses the shape\n"
            " *           (cudaErrorInvalidValue: a strip made for another\n"
            " *           short side), the next one's.\n"
            " *           A size (workspace) is the largest of the kernels'.\n"
            " *           %s_pick(fields..., sm) says which (sm 0: this\n"
            " *           device); %s_k<i>...() are kernel i's launchers\n"
            " *           (AT_ names in the comments: each kernel's own).\n",
            m->archs[0], AT_ALIGN_PENALTY, m->name, m->name);
    for (int i = 0; i < m->n_kernels; ++i) {
        const at_multi_entry *x = &en[m->first[i]];
        char label[32], point[128];
        snprintf(label, sizeof label, "kernel %d:", i);
        fam->ops.point_name(fam, &x->pt, point, sizeof point);
        fprintf(f, " *\n");
        at_emit_line(f, label, point);
        at_point_params(fam, &x->pt, text, sizeof text);
        at_emit_line(f, "", text);
        fam->ops.paths_text(m->paths[i], text, sizeof text);
        at_emit_line(f, "paths:", text);
        const int mb = at_multi_min_blocks(m, i);
        const int regs = at_multi_max_regs(m, i);
        if (mb) {
            const char *how = at_emit_bounds_text(&x->p, &x->pt, mb, regs);
            if (regs)
                snprintf(text, sizeof text, "%d blocks an SM, the fewest "
                         "of its tuned builds, in %d registers a thread, "
                         "the most: %s", mb, regs, how);
            else
                snprintf(text, sizeof text, "%d blocks an SM, the fewest "
                         "of its tuned builds: %s", mb, how);
            at_emit_line(f, "occupancy:", text);
        }
    }
    for (int o = 0; o < m->n_order; ++o) {
        const at_multi_entry *x = &en[m->order[o]];
        char prob[512];
        at_problem_str(&x->p, prob, sizeof prob);
        snprintf(text, sizeof text, "sm_%d: %s -> kernel %d", x->sm, prob,
                 m->kernel[m->order[o]]);
        fprintf(f, " *\n");
        at_emit_line(f, "problem:", text);
        at_emit_provenance(f, &x->p, &x->pv);
    }
    fprintf(f, " */\n#include <cuda_runtime.h>\n");
    if (en[0].p.type->header)
        fprintf(f, "#include <%s>\n", en[0].p.type->header);
    fprintf(f, "#include <math.h>\n\n#include <atomic>\n");
    at_emit_launch_helpers(f);
    fputc('\n', f);
}

/* C of gen/distance.c's at_problem_distance (which points here: keep the
 * two in step) for problems of one type (type_bytes) with equal choice
 * fields: NAME_align(value), NAME_distance(a, b) over the n number
 * fields. */
