"""Pictures of a tuning run (``autotune plot``): a heatmap of the space
over two parameters, and the strategies' convergence on a replay.

    autotune plot RECORD.csv -o space.png [--x P --y P] [--metric M]
    autotune plot --convergence RECORD.csv -o convergence.svg [--seeds N]

Needs matplotlib (Debian's python3-matplotlib); draws off screen."""
from __future__ import annotations

import argparse
import csv
import math
import os
import statistics
import sys
import tempfile
import textwrap
from typing import Dict, List, Optional, Sequence, Tuple

from . import record as rec_mod
from .errors import Error

METRICS = {"gbps": "GB/s", "ms": "ms", "gflops": "GFLOP/s"}


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise SystemExit("autotune plot: matplotlib is not installed "
                         "(Debian: apt-get install python3-matplotlib; "
                         "pip: pip install matplotlib)") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _wrap(text: str, width: int = 80) -> str:
    return "\n".join(textwrap.wrap(text, width))


def value_of(row: rec_mod.Row, metric: str, flops: Optional[float]) -> float:
    """A row's figure in the metric (higher is better but for ms)."""
    ms = rec_mod.ms_of(row)
    if metric == "ms":
        return ms
    if metric == "gflops":
        return (flops or math.nan) / (ms * 1e6)
    return row.gbps or 0.0


def explained(rows: List[rec_mod.Row], param: str) -> float:
    """How much of the spread of log(time) a parameter explains alone:
    1 - (within its values' groups) / (total) sum of squares."""
    ys = [math.log(rec_mod.ms_of(r)) for r in rows]
    mean = statistics.fmean(ys)
    total = sum((y - mean) ** 2 for y in ys)
    if total == 0:
        return 0.0
    groups: Dict[int, List[float]] = {}
    for r, y in zip(rows, ys):
        groups.setdefault(r.params[param], []).append(y)
    within = sum(sum((y - statistics.fmean(g)) ** 2 for y in g)
                 for g in groups.values())
    return 1.0 - within / total


def pick_axes(rows: List[rec_mod.Row], x: Optional[str],
              y: Optional[str]) -> Tuple[str, Optional[str]]:
    """The two parameters to draw: the ones named, else those that explain
    most of the spread (only parameters with two values or more)."""
    names = list(rows[0].params)
    for n in (x, y):
        if n is not None and n not in names:
            raise SystemExit(f"autotune plot: no parameter '{n}' in the "
                             f"record (it has {', '.join(names)})")
    varying = [n for n in names if len({r.params[n] for r in rows}) > 1]
    ranked = sorted(varying, key=lambda n: -explained(rows, n))
    rest = [n for n in ranked if n not in (x, y)]
    x = x or (rest.pop(0) if rest else None)
    y = y or (rest.pop(0) if rest else None)
    if x is None:
        raise SystemExit("autotune plot: no parameter varies in the record")
    return x, y


def grid(rows: List[rec_mod.Row], x: str, y: Optional[str], metric: str,
         flops: Optional[float]):
    """Each (x, y) cell's best figure over the other parameters."""
    xs = sorted({r.params[x] for r in rows})
    ys: List[Optional[int]] = [None]
    if y:
        ys = list(sorted({r.params[y] for r in rows}))
    better = min if metric == "ms" else max
    cells: Dict[Tuple, float] = {}
    for r in rows:
        key = (r.params[x], r.params[y] if y else None)
        v = value_of(r, metric, flops)
        cells[key] = better(cells[key], v) if key in cells else v
    z = [[cells.get((xv, yv), math.nan) for xv in xs] for yv in ys]
    return xs, ys, z


def space(record: str, output: str, x: Optional[str] = None,
          y: Optional[str] = None, metric: Optional[str] = None,
          flops: Optional[float] = None) -> str:
    """Draws a record's space as a heatmap over two parameters (the rest
    at their best), the winner marked; writes output (.png, .svg, .pdf)."""
    rec = rec_mod.load(record)
    rows = rec.ok
    if not rows:
        raise SystemExit(f"autotune plot: {record}: no point passed its "
                         f"checks")
    if metric is None:
        metric = "gbps" if any(r.gbps for r in rows) else "ms"
    if metric == "gflops" and not flops:
        raise SystemExit("autotune plot: --metric gflops needs --flops N "
                         "(the kernel's floating-point operations a run)")
    x, y = pick_axes(rows, x, y)
    xs, ys, z = grid(rows, x, y, metric, flops)
    best = rec.best()
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 + 0.75 * len(xs)),
                                    2.4 + 0.5 * len(ys)), layout="constrained")
    cmap = plt.get_cmap("viridis_r" if metric == "ms" else "viridis").copy()
    cmap.set_bad("#dddddd")
    import numpy as np
    im = ax.imshow(np.array(z, dtype=float), cmap=cmap, aspect="auto",
                   origin="lower")
    ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    ax.set_yticks(range(len(ys)), [str(v) for v in ys] if y else [""])
    ax.set_xlabel(x)
    ax.set_ylabel(y or "")
    finite = [v for row in z for v in row if not math.isnan(v)]
    hi = max(finite)
    for j, row in enumerate(z):
        for i, v in enumerate(row):
            if not math.isnan(v) and len(xs) * len(ys) <= 400:
                ax.text(i, j, f"{v:.0f}" if v >= 100 else f"{v:.3g}",
                        ha="center", va="center",
                        fontsize=7, color="w" if (v < 0.6 * hi) != (
                            metric == "ms") else "k")
    bi = xs.index(best.params[x])
    bj = ys.index(best.params[y]) if y else 0
    ax.add_patch(plt.Rectangle((bi - 0.5, bj - 0.5), 1, 1, fill=False,
                               edgecolor="red", linewidth=2.5))
    fig.colorbar(im, ax=ax, label=METRICS[metric])
    shown = f"{rec_mod.ms_of(best):.4g} ms"
    if metric != "ms":
        shown += f", {value_of(best, metric, flops):.4g} {METRICS[metric]}"
    ax.set_title(_wrap(f"{rec.family} {rec.type} {rec.problem}, {rec.gpu}: "
                       f"{len(rows)} points, each cell the best over the "
                       f"other parameters; winner (red): {best.point} "
                       f"({shown})"), fontsize=8)
    fig.savefig(output)
    plt.close(fig)
    return output


def _trace(path: str) -> Dict[str, List[List[Tuple[str, Optional[float]]]]]:
    """strategy -> seeds -> evaluations (point, ms)."""
    out: Dict[str, Dict[str, list]] = {}
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            ms = row["median_ms"]
            out.setdefault(row["strategy"], {}).setdefault(
                row["seed"], []).append((row["point"],
                                         float(ms) if ms else None))
    return {s: list(seeds.values()) for s, seeds in out.items()}


def _quantile(vs: Sequence[float], q: float) -> float:
    vs = sorted(vs)
    return vs[min(len(vs) - 1, int(q * (len(vs) - 1) + 0.5))]


def convergence(record: str, output: str, trace: Optional[str] = None,
                seeds: int = 20, strategy: Optional[str] = None) -> str:
    """Best-so-far against evaluations, and against the seconds the
    recorded tune spent on the points visited, for each strategy of a
    replay of the record (median over seeds, 10-90% band)."""
    rec = rec_mod.load(record)
    opt = rec.best_ms()
    tmp = None
    if trace is None:
        from . import cli
        fd, tmp = tempfile.mkstemp(suffix=".csv")
        os.close(fd)
        cli.replay_trace(record, tmp, seeds=seeds, strategy=strategy)
        trace = tmp
    try:
        runs = _trace(trace)
    finally:
        if tmp:
            os.unlink(tmp)
    pace = rec.pace()
    plt = _pyplot()
    ncol = 2 if pace else 1
    fig, axes = plt.subplots(1, ncol, figsize=(5.5 * ncol, 4),
                             layout="constrained", squeeze=False)
    styles = ["-", "--", "-.", ":"]
    for n_run, (name, seed_runs) in enumerate(sorted(runs.items())):
        style = styles[n_run % len(styles)]
        curves = []
        for evals in seed_runs:
            best, c = math.inf, []
            for _, ms in evals:
                if ms is not None:
                    best = min(best, ms)
                c.append(100.0 * opt / best if best < math.inf else 0.0)
            curves.append(c)
        n = max(len(c) for c in curves)
        pad = [c + [c[-1]] * (n - len(c)) for c in curves]
        med = [statistics.median(col) for col in zip(*pad)]
        lo = [_quantile(col, 0.1) for col in zip(*pad)]
        hi = [_quantile(col, 0.9) for col in zip(*pad)]
        xs = list(range(1, n + 1))
        line, = axes[0][0].plot(xs, med, style, label=name)
        axes[0][0].fill_between(xs, lo, hi, alpha=0.2,
                                color=line.get_color())
        if pace:
            # Seconds at the recorded pace: the first result, then a
            # point every pace[1] s (a strategy compiles and times as the
            # recorded tune did; only the order of the points differs).
            secs = [pace[0] + (k - 1) * pace[1] for k in xs]
            axes[0][1].plot(secs, med, style, label=name,
                            color=line.get_color())
    axes[0][0].set_xlabel("evaluations")
    axes[0][0].set_xscale("log")
    for ax in axes[0]:
        ax.set_ylabel("best so far, % of the optimum's speed")
        ax.set_ylim(0, 102)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    if pace:
        axes[0][1].set_xlabel(f"seconds at the recorded tune's pace\n(first "
                              f"result {pace[0]:.2g} s, then "
                              f"{1e3 * pace[1]:.3g} ms a point)")
    note = "" if pace else " (the record has no elapsed_s: no seconds)"
    fig.suptitle(_wrap(f"{rec.family} {rec.type} {rec.problem} on "
                       f"{rec.gpu}: {len(rec.rows)} points, optimum "
                       f"{opt:.4g} ms; median of "
                       f"{len(next(iter(runs.values())))} seeds a strategy, "
                       f"10-90% band{note}", 60 * ncol), fontsize=8)
    fig.savefig(output)
    plt.close(fig)
    return output


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        prog="autotune plot", description="draw a tuning run's record: a "
        "heatmap of its space, or (--convergence) the strategies' "
        "best-so-far on a replay of it")
    ap.add_argument("record", help="a record (autotune ... --record FILE)")
    ap.add_argument("-o", "--output", required=True,
                    help="the picture: .png, .svg or .pdf")
    ap.add_argument("--x", help="the parameter across (default: the one "
                    "that explains most of the spread)")
    ap.add_argument("--y", help="the parameter up (default: the next)")
    ap.add_argument("--metric", choices=sorted(METRICS),
                    help="gbps (default where the record has it), ms, or "
                    "gflops (with --flops)")
    ap.add_argument("--flops", type=float,
                    help="floating-point operations a run, for gflops")
    ap.add_argument("--convergence", action="store_true",
                    help="best-so-far against evaluations and seconds for "
                    "each strategy of a replay")
    ap.add_argument("--trace", help="a replay's --csv (default: replayed "
                    "now, by the autotune command)")
    ap.add_argument("--seeds", type=int, default=20,
                    help="seeds a strategy for the replay (default 20)")
    ap.add_argument("--strategy", help="one strategy only")
    a = ap.parse_args(argv)
    try:
        if a.convergence:
            convergence(a.record, a.output, a.trace, a.seeds, a.strategy)
        else:
            space(a.record, a.output, a.x, a.y, a.metric, a.flops)
    except (OSError, ValueError, Error) as exc:
        print(f"autotune plot: {exc}", file=sys.stderr)
        return 1
    print(a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
