"""docs/PYTHON.md's examples run as a new user would run them: every
```python block verbatim, in a folder of its own, a path under
`examples/` read as the repository's (as from its root). A block that imports CuPy or PyTorch needs a GPU and skips
without one (and without the library); the rest run everywhere."""
import re
import tempfile

import pytest

import autotune
from conftest import repo

BLOCKS = re.findall(r"```python\n(.*?)```",
                    open(repo("docs", "PYTHON.md"), encoding="utf-8").read(),
                    re.S)


def _gpu_reason(block):
    if not re.search(r"^import (cupy|torch)", block, re.M):
        return None
    try:
        with tempfile.TemporaryDirectory() as d:
            autotune.Context(cache=d + "/probe.db").close()
    except autotune.NoDeviceError as exc:
        return f"no GPU here: {exc}"
    for lib in ("cupy", "torch"):
        if re.search(rf"^import {lib}", block, re.M):
            try:
                __import__(lib)
            except ImportError:
                return f"no {lib} here"
    return None


def test_the_guide_has_an_example_per_family_and_a_spec():
    text = "\n".join(BLOCKS)
    for call in ("autotune.transpose(", "autotune.reduce(",
                 "load_spec(", "autotune.emit("):
        assert call in text, call


@pytest.mark.parametrize("i", range(len(BLOCKS)))
def test_a_guide_example_runs(i, tmp_path, monkeypatch):
    block = BLOCKS[i]
    reason = _gpu_reason(block)
    if reason:
        pytest.skip(reason)
    # The repository's own path, so that a spec loaded elsewhere in this
    # process is the same family (a family is one spec a process).
    block = block.replace('"examples/', '"' + repo("examples") + "/")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AUTOTUNE_CACHE", str(tmp_path / "cache.db"))
    exec(compile(block, f"docs/PYTHON.md, example {i + 1}", "exec"),
         {"__name__": "__main__"})
