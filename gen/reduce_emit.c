/* The reduce family's emitted host code: the workspace query and the
 * launcher of the .cu file (NAME_workspace_bytes, NAME), and how to call
 * them. */
#include <stdio.h>

#include "emit.h"
#include "reduce.h"

/* Flat down columns: a group's threads in the emitted code (one-element
 * vectors skip the padding, a row's cols threads; wider ones ld). */
static const char *flat_span(const at_point *pt)
{
    return pt->v[VEC] == 1 ? "cols" : "ld";
}

/* The point's geometry for a shape, as at_rd_geom_of computes it. */
static void emit_geom(FILE *f, const at_problem *p, const at_point *pt)
{
    const int *x = pt->v;
    if (!at_rd_down(p) && at_rd_flat(pt)) {
        /* A warp's rows: in waves, from the SMs; else the chunk's. */
        if (x[WAVES])
            fprintf(f,
                    "    /* Flat along rows: %d x %d warps an SM, the rows "
                    "shared\n     * evenly among them, no split. */\n"
                    "    const long long warps =\n"
                    "        %dLL * (sms < 1 ? 1 : sms < %d ? sms : %d) * "
                    "%d;\n"
                    "    g->seg = (rows + warps - 1) / warps;\n",
                    x[WAVES], AT_RD_FLAT_ROWS_WAVE_WARPS, x[WAVES],
                    AT_RD_MAX_SMS, AT_RD_MAX_SMS, AT_RD_FLAT_ROWS_WAVE_WARPS);
        else
            fprintf(f,
                    "    /* Flat along rows: %d whole rows a warp, no split. "
                    "*/\n"
                    "    g->seg = %dLL;\n",
                    AT_RD_FLAT_ROWS_PER_CHUNK * x[CHUNK],
                    AT_RD_FLAT_ROWS_PER_CHUNK * x[CHUNK]);
        fprintf(f, "    g->units = (rows + AT_THREADS / 32 * g->seg - 1) /\n"
                   "               (AT_THREADS / 32 * g->seg);\n"
                   "    g->split = 1;\n"
                   "    g->outs = rows;\n");
    } else if (at_rd_down(p) && at_rd_flat(pt)) {
        /* A group's span, then the segment: in waves, whole rounds of
         * the groups from the SMs; else the chunk's. */
        fprintf(f, "    /* Flat: a group of %s threads to each AT_VEC rows",
                flat_span(pt));
        if (x[WAVES])
            fprintf(f, "; a chunk\n     * for every group a round, about %d "
                    "blocks an SM", x[WAVES]);
        fprintf(f,
                ". */\n"
                "    const long long span = %s;\n"
                "    const long long groups = span <= AT_THREADS ? AT_THREADS "
                "/ span : 1;\n",
                flat_span(pt));
        if (x[WAVES])
            fprintf(f,
                    "    const long long lanes = groups * AT_VEC;\n"
                    "    const long long blocks =\n"
                    "        %dLL * (sms < 1 ? 1 : sms < %d ? sms : %d);\n"
                    "    g->units = 1;\n"
                    "    g->seg = ((rows + blocks - 1) / blocks + lanes - 1) / "
                    "lanes * lanes;\n",
                    x[WAVES], AT_RD_MAX_SMS, AT_RD_MAX_SMS);
        else
            fprintf(f,
                    "    g->units = 1;\n"
                    "    g->seg = %d ? groups * AT_VEC * AT_ITEMS * %d : "
                    "rows;\n",
                    x[CHUNK], x[CHUNK]);
        fprintf(f, "    g->split = (rows + g->seg - 1) / g->seg;\n"
                   "    g->outs = cols;\n");
    } else if (at_rd_down(p)) {
        fprintf(f, "    const long long lanes = AT_THREADS / AT_GROUP;\n"
                   "    const long long w = AT_GROUP * AT_VEC;\n"
                   "    g->units = (cols + w - 1) / w;\n");
        if (x[WAVES])
            fprintf(f,
                    "    /* In waves: as many segments of whole steps a "
                    "strip as the\n     * strips fit in %d x SMs x %d / "
                    "AT_THREADS blocks. */\n"
                    "    const long long step = lanes * AT_ITEMS;\n"
                    "    long long split = %dLL * (sms < 1 ? 1 : sms < %d ? "
                    "sms : %d) *\n"
                    "                      (%d / AT_THREADS) / g->units;\n"
                    "    if (split < 1)\n        split = 1;\n"
                    "    g->seg = ((rows + split - 1) / split + step - 1) / "
                    "step * step;\n",
                    x[WAVES], AT_RD_WAVE_THREADS, x[WAVES], AT_RD_MAX_SMS,
                    AT_RD_MAX_SMS, AT_RD_WAVE_THREADS);
        else
            fprintf(f, "    g->seg = %d ? lanes * AT_ITEMS * %d : rows;\n",
                    x[CHUNK], x[CHUNK]);
        fprintf(f, "    g->split = (rows + g->seg - 1) / g->seg;\n"
                   "    g->outs = g->units * w;\n");
    } else
        fprintf(f,
                "    const long long rpb = AT_THREADS / AT_GROUP;\n"
                "    g->units = (rows + rpb - 1) / rpb;\n"
                "    g->seg = %d ? (long long)AT_GROUP * AT_VEC * AT_ITEMS "
                "* %d : cols;\n"
                "    g->split = (cols + g->seg - 1) / g->seg;\n"
                "    g->outs = rows;\n",
                x[CHUNK], x[CHUNK]);
}

/* NAME_sms: the current device's SMs, asked once per device (as the
 * multi-size file's NAME_device_sm asks its architecture). */
static void emit_device_sms(FILE *f, const char *name)
{
    char fn[160];
    snprintf(fn, sizeof fn, "%s_sms", name);
    fprintf(f, "#include <atomic>\n\n");
    at_emit_device_value_c(f, fn, "SMs",
                           "        err = cudaDeviceGetAttribute(v,\n"
                           "            cudaDevAttrMultiProcessorCount, "
                           "dev);\n");
}

/* NAME_workspace_bytes: the workspace for rows x cols, for any ld the
 * launcher takes (flat) and, for a split in waves, any device. */
static void emit_workspace(FILE *f, const at_problem *p, const at_point *pt,
                           const char *name)
{
    const int flat = at_rd_down(p) && at_rd_flat(pt);
    const int waves = pt->v[WAVES];
    /* A flat split in waves has at most waves x SMs blocks (SMs past the
     * bound count as the bound) and a row at least each: the workspace
     * bound, whatever the device and ld. Strips in waves split most on
     * the most SMs, which the query's geometry takes. A flat point's
     * query takes ld = AT_THREADS: one group a block, the most blocks of
     * any ld its launcher takes (past the block, AT_FLAT_K, one too). */
    char bound[160] = "";
    if (flat && waves)
        snprintf(bound, sizeof bound,
                 "    g.split = rows < %dLL ? rows : %dLL;\n",
                 waves * AT_RD_MAX_SMS, waves * AT_RD_MAX_SMS);
    fprintf(f,
            "/* Bytes of device workspace a launch on rows x cols needs (0:\n"
            " * none)%s.\n"
            " * Zero it once before its first launch (cudaMemset): each launch\n"
            " * leaves it zero again. One per concurrent stream. */\n"
            "extern \"C\" size_t %s_workspace_bytes(long long rows,\n"
            "                                      long long cols)\n{\n"
            "    struct %s_geom g;\n"
            "    if (rows <= 0 || cols <= 0)\n        return 0;\n"
            "    %s_geom_of(rows, cols, %s, %d, &g);\n"
            "%s"
            "    if (g.split < 2)\n        return 0;\n"
            "    size_t parts = %s ? (size_t)g.outs\n"
            "                      : (size_t)g.outs * (size_t)g.split;\n"
            "    /* then a counter per row (column strip) */\n"
            "    return parts * sizeof(%s) + (size_t)%s * 4;\n}\n\n",
            flat && waves ? ", for any ld the launcher takes and any device"
            : flat        ? ", for any ld the launcher takes"
            : waves       ? ", on any device"
                          : "", name, name, name,
            flat ? "AT_THREADS" : "cols", AT_RD_MAX_SMS, bound,
            pt->v[COMBINE] == COMBINE_ATOMIC ? "1" : "0",
            at_rd_acc_ctype(p->type), at_rd_down(p) ? "g.units" : "rows");
}

void at_rd_emit_launcher(FILE *f, const at_problem *p, const at_point *pt,
                         const char *name)
{
    const char *t = p->type->ctype, *acc = at_rd_acc_ctype(p->type);
    const int down = at_rd_down(p), flat = down && at_rd_flat(pt);
    const int shift = at_rd_shift(p, pt);
    /* (Flat along rows too: its rows a warp follow the SMs; and column
     * strips.) */
    const int waves = pt->v[WAVES];
    /* sms: the device's SMs (a split in waves reads them). */
    fprintf(f, "struct %s_geom { long long units, seg, split, outs; };\n\n"
            "static void %s_geom_of(long long rows, long long cols,\n"
            "                       long long ld, int sms,\n"
            "                       struct %s_geom *g)\n{\n"
            "    (void)ld;\n    (void)sms;\n",
            name, name, name);
    emit_geom(f, p, pt);
    fprintf(f, "}\n\n");
    emit_workspace(f, p, pt, name);
    /* The device the launch runs on (the current one): its SMs. */
    char sms_query[192];
    if (waves) {
        emit_device_sms(f, name);
        snprintf(sms_query, sizeof sms_query,
                 "    int sms = 0;\n    cudaError_t serr = %s_sms(&sms);\n"
                 "    if (serr != cudaSuccess)\n        return serr;\n",
                 name);
    } else {
        snprintf(sms_query, sizeof sms_query,
                 "    const int sms = 0; /* no split in waves */\n");
    }
    /* A flat point's span (ld, or cols for one-element vectors): the
     * launcher's words for it and its check. */
    char span_says[64] = "", span_check[128] = "";
    if (flat) {
        snprintf(span_says, sizeof span_says,
                 ", %s at most\n * AT_THREADS x AT_FLAT_K", flat_span(pt));
        snprintf(span_check, sizeof span_check,
                 "    if (%s > (long long)AT_THREADS * AT_FLAT_K)\n"
                 "        return cudaErrorInvalidValue;\n",
                 flat_span(pt));
    }
    fprintf(f,
            "/* %s of rows x cols in (row-major, ld elements between rows)\n"
            " * into out: %s.\n"
            " * in and out are device pointers; in aligned to\n"
            " * AT_VEC elements%s. Returns the launch's error;\n"
            " * cudaErrorInvalidValue for bad sizes or alignment, or a NULL\n"
            " * workspace where one is needed. */\n"
            "extern \"C\" cudaError_t %s(const %s *in, %s *out,\n"
            "    long long rows, long long cols, long long ld,\n"
            "    void *workspace, cudaStream_t stream)\n{\n"
            "    struct %s_geom g;\n"
            "    if (rows <= 0 || cols <= 0 || ld < cols ||\n"
            "        (unsigned long long)in %% (AT_VEC * sizeof(*in)))\n"
            "        return cudaErrorInvalidValue;\n"
            "%s%s"
            "    %s_geom_of(rows, cols, ld, sms, &g);\n"
            "    if (g.split > 65535 || g.units > 2147483647LL ||\n"
            "        (g.split > 1 && !workspace))\n"
            "        return cudaErrorInvalidValue;\n"
            "    dim3 grid((unsigned)g.units, (unsigned)g.split);\n"
            "    at_launch_tuned(%s_kernel, grid, AT_THREADS, 0, stream,\n"
            "        (const at_in *)in, out, workspace, rows, cols, ld, g.seg,\n"
            "        0);\n",
            at_rd_fields[RD_OP].choices[p->v[RD_OP]],
            down ? "one result per column (cols of them)"
                 : "one result per row (rows of them)",
            flat    ? span_says
            : shift ? " (any ld: rows off the vector are realigned)"
            : down  ? ", ld a multiple of AT_VEC"
                    : "",
            name, t, acc, name,
            flat ? span_check
            : down && !shift ? "    if (ld % AT_VEC)\n        return "
                               "cudaErrorInvalidValue;\n"
                             : "",
            /* The device the launch runs on: the current one. */
            sms_query, name, name);
    if (pt->v[COMBINE] == COMBINE_TWO_PASS)
        fprintf(f,
                "    if (g.split > 1) {\n"
                "        cudaError_t err = cudaGetLastError();\n"
                "        if (err != cudaSuccess)\n            return err;\n"
                "        at_launch_tuned(%s_kernel, (unsigned)%s, AT_THREADS,\n"
                "            0, stream, (const at_in *)in, out, workspace,\n"
                "            rows, cols, ld, g.split, 1);\n    }\n",
                name, down ? "g.units" : "rows");
    fprintf(f, "    return cudaGetLastError();\n}\n\n");
    if (p->v[RD_AXIS] == AXIS_ALL)
        fprintf(f,
                "/* The whole array of n elements into out[0]. */\n"
                "extern \"C\" cudaError_t %s_all(const %s *in, %s *out,\n"
                "    long long n, void *workspace, cudaStream_t stream)\n{\n"
                "    return %s(in, out, 1, n, n, workspace, stream);\n}\n",
                name, t, acc, name);
}

void at_rd_usage(const at_problem *p, const char *name, char *buf, size_t n)
{
    if (p->v[RD_AXIS] == AXIS_ALL)
        snprintf(buf, n, "call %s_workspace_bytes(1, n), then %s_all() "
                 "from host code.", name, name);
    else
        snprintf(buf, n, "call %s_workspace_bytes(rows, cols), then %s() "
                 "from host code.", name, name);
}
