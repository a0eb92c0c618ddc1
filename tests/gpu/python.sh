#!/bin/sh
# GPU: the Python package's tests on this machine's GPU with CuPy, PyTorch
# and JAX (python/tests/test_gpu.py), then its launch overhead against
# CuPy's RawKernel (python/bench/launch_overhead.py; printed, not
# asserted). The package: importable already, else the wheel `make
# python-wheel` built (build/wheels), installed into a folder of its own;
# pytest likewise from .whl/ where the machine has none (the GPU machine:
# here, `python3 -m pip download --no-deps --only-binary=:all:
# --python-version 3.12 -d .whl pytest pluggy iniconfig packaging`, and
# carry .whl and build/wheels). TAP.
cd "$(dirname "$0")/../.." || exit 1
T=${AT_GPU_TMP:-$(mktemp -d)}/python
rm -rf "$T" && mkdir -p -m 700 "$T/site"
PY=${PYTHON:-python3}
echo "1..2"
for w in build/wheels/autotune-*.whl .whl/*.whl; do
    [ -f "$w" ] || continue
    case $w in
    build/*) "$PY" -c 'import autotune' 2>/dev/null && continue ;;
    *pytest*) "$PY" -c 'import pytest' 2>/dev/null && continue ;;
    esac
    "$PY" -m pip install -q --no-deps --no-index --target "$T/site" "$w" ||
        echo "# installing $w failed"
done
export PYTHONPATH="$T/site${PYTHONPATH:+:$PYTHONPATH}"
export XLA_PYTHON_CLIENT_PREALLOCATE=false AUTOTUNE_CACHE="$T/cache.db"
out=$(cd "$T" && "$PY" -m pytest -q -p no:cacheprovider -rs \
      "$OLDPWD/python/tests" 2>&1)
rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
if [ $rc -eq 0 ]; then echo "ok 1 - python/tests on the GPU: $(printf '%s\n' "$out" | tail -1)"
else echo "not ok 1 - python/tests on the GPU: $(printf '%s\n' "$out" | tail -1)"; fi
out=$("$PY" python/bench/launch_overhead.py 2>&1)
rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
if [ $rc -eq 0 ]; then echo "ok 2 - launch overhead measured"
else echo "not ok 2 - launch overhead (exit $rc)"; fi
