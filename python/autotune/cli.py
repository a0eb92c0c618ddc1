"""What needs no GPU and no library handle, through the autotune command
(bundled with the package): a problem's space and an emitted .cu."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional

from . import _native, arrays, shapes
from .errors import error


def _family_args(family: str, dtype: Any, fields: Dict[str, Any]) -> List[str]:
    """FAMILY (or kernel SPEC), --type and a flag per field."""
    spec = shapes.spec_path(family)
    if spec is None and os.path.isfile(family):
        spec = family
    out = ["kernel", spec] if spec else [family]
    if dtype is not None:
        out += ["--type", arrays.type_name(dtype)]
    for name, value in fields.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = "yes" if value else "no"
        out += ["--" + name.replace("_", "-"), str(value)]
    return out


def run(args: List[str]) -> subprocess.CompletedProcess:
    """Runs the autotune command; a failure as the library's exception:
    the code and message of --json's error object where it wrote one,
    else its last line on stderr (a usage error is INVALID)."""
    proc = subprocess.run([_native.cli_path()] + args, capture_output=True,
                          text=True)
    if proc.returncode == 0:
        return proc
    lines = proc.stderr.strip().splitlines()
    code, msg = -1, (lines[-1] if lines else "")
    if msg.startswith("autotune: "):
        msg = msg[len("autotune: "):]
    try:
        err = json.loads(proc.stdout)
        code, msg = int(err.get("code", code)), err.get("message", msg)
    except (ValueError, AttributeError, TypeError):
        pass
    raise error(code, msg or f"autotune {' '.join(args)} failed "
                f"(status {proc.returncode})")


def space(family: str, dtype: Any = None, arch: str = "sm_90",
          **fields: Any) -> Dict[str, Any]:
    """A problem's space for an architecture, as ``autotune space --json``
    gives it (docs/schema/space.json): its axes, counts and every valid
    point's name. Needs no GPU. ``family`` may be a loaded spec's family
    or a spec file's path."""
    args = _family_args(family, dtype, fields)
    if args[0] == "kernel":
        args = args[1:]
    proc = run(["space"] + args + ["--arch", arch, "--json"])
    return json.loads(proc.stdout)


def emit(family: str, output: str, dtype: Any = None, arch: str = "sm_90",
         **fields: Any) -> Path:
    """Writes a standalone .cu for a problem (``autotune FAMILY --arch
    sm_XX -o output``): the tuned point from the cache where there is one
    for that architecture, else the family's default point; "auto" tunes
    on this machine's GPU. Returns the path written."""
    args = _family_args(family, dtype, fields)
    run(args + ["--arch", arch, "-o", str(output), "--quiet"])
    return Path(output)


def replay_trace(record: str, output: str, seeds: int = 20,
                 strategy: Optional[str] = None) -> Path:
    """``autotune replay RECORD --csv OUTPUT``: every strategy's seeds run
    on a recorded space, evaluation by evaluation (no GPU)."""
    args = ["replay", str(record), "--seeds", str(seeds), "--csv",
            str(output)]
    if strategy:
        args += ["--strategy", strategy]
    run(args)
    return Path(output)
