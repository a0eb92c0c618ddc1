# The Python package (python/, docs/PYTHON.md). make check installs it
# into a venv of Debian's Python (.ci/deps.sh installs that Python,
# pytest and matplotlib) and runs its tests on the installed package
# (tests/python.sh); make python-wheel builds the wheel the GPU machine
# installs (tests/gpu/python.sh), the C library and command inside.
PYTHON3 ?= $(firstword $(wildcard /usr/bin/python3) python3)
PYENV   := $(B)/pyenv
PY_SRC  := $(wildcard python/autotune/*.py) python/setup.py \
           python/pyproject.toml

# The package's setup.py runs make for build/autotune and the shared
# library itself (both up to date by then).
$(PYENV)/installed: $(PY_SRC) $(B)/autotune $(AT_SO)
	rm -rf $(PYENV)
	$(PYTHON3) -m venv --system-site-packages $(PYENV)
	$(PYENV)/bin/pip install -q --no-build-isolation --no-deps --no-index \
	    --no-cache-dir ./python
	touch $@

python-wheel: $(PYENV)/installed
	rm -rf $(B)/wheels
	$(PYENV)/bin/pip wheel -q --no-build-isolation --no-deps --no-index \
	    --no-cache-dir -w $(B)/wheels ./python

.PHONY: python-wheel
