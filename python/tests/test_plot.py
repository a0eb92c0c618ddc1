"""The plots, drawn from a real H100 record (docs/perf) and from a record
written here: files of the right format, the axes the spread picks, the
replay behind the convergence, and clear errors."""
import math
import os
import subprocess

import pytest

import autotune
from autotune import plot, record
from conftest import repo

pytest.importorskip("matplotlib")
CONV = repo("docs", "perf", "issue15-h100-records", "convolution.csv")


def cli(*args, **env):
    """The C command, as a user runs it (it hands plot to this package)."""
    binary = os.environ.get("AUTOTUNE_BIN_REL") or autotune._native.cli_path()
    e = dict(os.environ, **env)
    return subprocess.run([binary, *args], capture_output=True, text=True,
                          env=e)


def test_a_record_reads_back():
    r = record.load(CONV)
    assert r.family == "convolution" and "H100" in r.gpu
    assert len(r.rows) == 144 and len(r.ok) == 144
    assert r.best().point == \
        "block_size_x32_block_size_y2_tile_size_x1_tile_size_y4"
    assert r.pace() is None  # written before elapsed_s


def test_the_axes_are_those_that_explain_the_spread():
    rows = record.load(CONV).ok
    scores = {p: plot.explained(rows, p) for p in rows[0].params}
    x, y = plot.pick_axes(rows, None, None)
    assert {x, y} == set(sorted(scores, key=scores.get)[-2:])
    assert scores[x] >= scores[y] > 0
    assert plot.pick_axes(rows, "tile_size_x", None)[0] == "tile_size_x"
    with pytest.raises(SystemExit, match="no parameter 'nope'"):
        plot.pick_axes(rows, "nope", None)


def test_each_cell_is_the_best_over_the_rest():
    rows = record.load(CONV).ok
    xs, ys, z = plot.grid(rows, "block_size_x", "block_size_y", "ms", None)
    empty = 0
    for j, yv in enumerate(ys):
        for i, xv in enumerate(xs):
            ms = [r.median_ms for r in rows if r.params["block_size_x"] == xv
                  and r.params["block_size_y"] == yv]
            if ms:
                assert z[j][i] == min(ms)
            else:
                assert math.isnan(z[j][i])
                empty += 1
    assert 0 < empty < len(xs) * len(ys)  # the restriction leaves holes


@pytest.mark.parametrize("name,magic", [("s.png", b"\x89PNG"),
                                        ("s.svg", b"<?xml")])
def test_space_heatmap_files(tmp_path, name, magic):
    out = tmp_path / name
    plot.space(CONV, str(out))
    assert out.read_bytes().startswith(magic)


def test_the_command_draws_and_says_what_is_wrong(tmp_path):
    py = os.environ.get("AUTOTUNE_PYTHON", "python3")
    out = tmp_path / "c.png"
    p = cli("plot", "--convergence", CONV, "-o", str(out), "--seeds", "5",
            AUTOTUNE_PYTHON=py)
    assert p.returncode == 0, p.stderr
    assert out.read_bytes().startswith(b"\x89PNG")
    bad = tmp_path / "bad.csv"
    bad.write_text("not,a,record\n1,2,3\n")
    p = cli("plot", str(bad), "-o", str(tmp_path / "b.png"),
            AUTOTUNE_PYTHON=py)
    assert p.returncode == 1 and "not an autotune record" in p.stderr
    p = cli("plot", CONV, "-o", str(tmp_path / "x.png"),
            AUTOTUNE_PYTHON="/nonexistent/python3")
    assert p.returncode == 1 and "AUTOTUNE_PYTHON" in p.stderr


@pytest.mark.parametrize("body,says", [
    (b"\xc0\xff\x00binary", "not text"),
    (b"", "not an autotune record"),
    (b"gpu,point,params,status,median_ms\ng,p,a=1,wrong,\n",
     "no point passed its checks"),
    (b"gpu,point,params,status,median_ms\ng,p,a=x,ok,1\n",
     ":2: params a=x: not a whole number"),
    (b"gpu,point,params,status,median_ms\ng,p,a=1,ok,1\ng,q,b=1,ok,2\n",
     ":3: params b, the first row's are a"),
    (b"gpu,point,params,status,median_ms\ng,p,a=1,ok,1\ng,q,a=1,ok,2\n",
     "no parameter varies"),
])
def test_a_bad_record_is_one_line_naming_it(tmp_path, body, says):
    bad = tmp_path / "bad.csv"
    bad.write_bytes(body)
    p = cli("plot", str(bad), "-o", str(tmp_path / "b.png"),
            AUTOTUNE_PYTHON=os.environ.get("AUTOTUNE_PYTHON", "python3"))
    assert p.returncode == 1, p.stderr
    assert says in p.stderr and len(p.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "b.png").exists()


def test_seconds_come_from_elapsed_s(tmp_path):
    """A record with elapsed_s (autotune writes it now): its pace (first
    result, then seconds a point), and the convergence has two panels."""
    rows = open(CONV).read().splitlines()
    lines = [rows[0] + ",elapsed_s"] + [f"{r},{0.5 * i:.3f}"
                                        for i, r in enumerate(rows[1:], 1)]
    rec = tmp_path / "timed.csv"
    rec.write_text("\n".join(lines) + "\n")
    first, per_point = record.load(str(rec)).pace()
    assert first == 0.5 and abs(per_point - 0.5) < 1e-12
    trace = tmp_path / "trace.csv"
    p = cli("replay", str(rec), "--seeds", "3", "--csv", str(trace))
    assert p.returncode == 0, p.stderr
    head = trace.read_text().splitlines()[0]
    assert head == "strategy,seed,evaluation,point,median_ms"
    out = tmp_path / "conv.svg"
    plot.convergence(str(rec), str(out), trace=str(trace))
    assert "seconds" in out.read_text()
