#!/bin/sh
# The Python package's CPU tests (pytest, python/tests) on the package as
# installed into build/pyenv (make check installs it first), one TAP line
# for the lot and pytest's own lines as comments; then its type hints
# checked (mypy). The GPU's tests skip here (tests/gpu/python.sh runs
# them there).
cd "$(dirname "$0")/.." || exit 1
PY=build/pyenv/bin/python
echo "1..2"
if [ ! -x $PY ]; then
    echo "not ok 1 - build/pyenv is missing: make check installs it"
    echo "not ok 2 - build/pyenv is missing"
    exit 0
fi
T=$(mktemp -d) && trap 'rm -rf "$T"' EXIT
# From a folder of its own, so that python/ is not what is imported.
out=$(cd "$T" && AUTOTUNE_PYTHON="$OLDPWD/$PY" \
      AUTOTUNE_BIN_REL="$OLDPWD/build/autotune" \
      "$OLDPWD/$PY" -m pytest -q -p no:cacheprovider -rs \
      "$OLDPWD/python/tests" 2>&1)
rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
summary=$(printf '%s\n' "$out" | tail -1)
if [ $rc -eq 0 ]; then echo "ok 1 - python/tests: $summary"
else echo "not ok 1 - python/tests: $summary"; fi
out=$("$PY" -m mypy --ignore-missing-imports --no-incremental --cache-dir=/dev/null \
      python/autotune 2>&1)
rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
if [ $rc -eq 0 ]; then echo "ok 2 - python/autotune's type hints: $(printf '%s\n' "$out" | tail -1)"
else echo "not ok 2 - python/autotune's type hints (mypy): $(printf '%s\n' "$out" | tail -1)"; fi
