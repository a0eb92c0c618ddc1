/* The summary of a benchmark's problems, large apart from small
 * (bench_summary.h). */
#include "bench_summary.h"

#include <stdlib.h>

#include "base/median.h"

/* One group's line: the points of pts that pass keep (group large or
 * not, element size or any), said after head. */
static void group(FILE *f, const at_bench_point *pts, int n, int large,
                  int elem, const char *head)
{
    double *v = malloc((size_t)n * sizeof *v);
    int m = 0, missed = 0, low = -1;
    for (int i = 0; v && i < n; ++i) {
        const at_bench_point *p = &pts[i];
        if ((p->bytes >= AT_BENCH_LARGE_BYTES) != large ||
            (elem && p->elem_bytes != elem))
            continue;
        v[m++] = p->frac_copy;
        missed += p->missed;
        if (low < 0 || p->frac_copy < pts[low].frac_copy)
            low = i;
    }
    if (m) {
        double median = at_median_sort(v, (size_t)m);
        fprintf(f, "%s%d, median %.1f%% of the copy, minimum %.1f%% (%s), "
                "%d missed %s target\n", head, m, 100 * median,
                100 * pts[low].frac_copy, pts[low].name, missed,
                missed == 1 ? "its" : "their");
    }
    free(v);
}

void at_bench_summary(FILE *f, const at_bench_point *pts, int n)
{
    static const int sizes[] = {1, 2, 4, 8, 16};
    for (int large = 1; large >= 0; --large) {
        int m = 0;
        for (int i = 0; i < n; ++i)
            m += (pts[i].bytes >= AT_BENCH_LARGE_BYTES) == large;
        if (!m)
            continue;
        fprintf(f, "\n%s\n", large ? "problems of 64 MiB or more (past L2:"
                " the copy is the ceiling):" : "problems under 64 MiB (L2 "
                "may serve them: the copy is no ceiling):");
        group(f, pts, n, large, 0, "  all: ");
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; ++s) {
            char head[48];
            snprintf(head, sizeof head, "  %d-byte elements: ", sizes[s]);
            group(f, pts, n, large, sizes[s], head);
        }
    }
}
