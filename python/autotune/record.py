"""A tuning run's record (``--record FILE.csv``) read back: one row per
point evaluated, in the order the tune knew them."""
from __future__ import annotations

import csv
import math
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple


@dataclass
class Row:
    point: str
    params: Dict[str, int]
    status: str
    median_ms: Optional[float]  # None: failed (status says why)
    gbps: Optional[float]
    elapsed_s: Optional[float]  # since the tune began (None in older records)


@dataclass
class Record:
    path: str
    gpu: str = ""
    family: str = ""
    type: str = ""
    problem: str = ""
    rows: List[Row] = field(default_factory=list)

    @property
    def ok(self) -> List[Row]:
        """The rows that passed their checks and have a time."""
        return [r for r in self.rows if r.median_ms is not None]

    def best_ms(self) -> float:
        """The fastest point's time."""
        return ms_of(self.best())

    def best(self) -> Row:
        ok = self.ok
        if not ok:
            raise ValueError(f"{self.path}: no point passed its checks")
        return min(ok, key=ms_of)

    def pace(self) -> Optional[Tuple[float, float]]:
        """The recorded tune's pace: seconds to its first result (the
        setup, the first program compiled) and seconds a point after that
        (compiles and timing overlapped as they were); None for a record
        without elapsed_s, or of one point."""
        t = [r.elapsed_s for r in self.rows if r.elapsed_s is not None]
        if len(t) < 2 or len(t) != len(self.rows):
            return None
        first, last = t[0], max(t)
        return first, max(last - first, 0.0) / (len(t) - 1)


def ms_of(row: Row) -> float:
    """A row's time (NaN for a failed one)."""
    return row.median_ms if row.median_ms is not None else math.nan


def _num(text: str) -> Optional[float]:
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def load(path: str) -> Record:
    """Reads a record; a ValueError naming the file and line if it is not
    one."""
    rec = Record(str(path))
    try:
        _read(path, rec)
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not text (a record is a CSV file that "
                         f"autotune --record wrote)") from None
    if not rec.rows:
        raise ValueError(f"{path}: a record with no points")
    return rec


def _read(path: str, rec: Record) -> None:
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        need = {"point", "params", "status", "median_ms"}
        if not reader.fieldnames or not need <= set(reader.fieldnames):
            raise ValueError(f"{path}: not an autotune record (its header "
                             f"lacks {', '.join(sorted(need))})")
        for line, row in enumerate(reader, start=2):
            params = {}
            for tok in (row.get("params") or "").split():
                name, eq, value = tok.partition("=")
                if not eq:
                    raise ValueError(f"{path}:{line}: params '{tok}' is not "
                                     f"name=value")
                try:
                    params[name] = int(value)
                except ValueError:
                    raise ValueError(f"{path}:{line}: params {tok}: not a "
                                     f"whole number") from None
            if rec.rows and list(params) != list(rec.rows[0].params):
                raise ValueError(f"{path}:{line}: params "
                                 f"{' '.join(params) or '(none)'}, the "
                                 f"first row's are "
                                 f"{' '.join(rec.rows[0].params)}")
            ok = row.get("status") == "ok"
            rec.rows.append(Row(
                row["point"], params, row.get("status", ""),
                _num(row["median_ms"]) if ok else None,
                _num(row.get("gbps", "")) if ok else None,
                _num(row.get("elapsed_s", ""))))
            if line == 2:
                rec.gpu, rec.family = row.get("gpu", ""), row.get("family", "")
                rec.type = row.get("type", "")
                rec.problem = row.get("problem", "") or " ".join(
                    f"{k}={row[k]}" for k in ("rows", "cols") if k in row)
