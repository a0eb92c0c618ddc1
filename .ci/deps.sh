#!/bin/sh
# What the build (deps.sh build) or the tests (deps.sh check) need from
# Debian 12, beyond the CUDA toolkit. Missing packages are installed when
# this runs as root with apt-get; otherwise the exact command is printed
# and the status is 1. The Makefile runs this before `make` and
# `make check`; .ci/run runs `make check` and nothing else installs.
# Everything goes to stderr (the Makefile reads stdout).
exec 1>&2
# Not Debian: nothing to check here; the compiler says what is missing.
command -v dpkg-query >/dev/null || exit 0
pkgs="build-essential libsqlite3-dev libjansson-dev libyaml-dev"
[ "$1" = check ] && pkgs="$pkgs libcmocka-dev python3-jsonschema perl clang libclang-rt-14-dev"
# tests/test_install.sh: pkg-config on the installed .pc, groff renders
# the man page.
[ "$1" = check ] && pkgs="$pkgs pkgconf groff-base"
# The Python package's tests (python/, issue 39): Debian's Python with a
# venv to install the package into, pytest, matplotlib for the plots and
# mypy for its type hints.
[ "$1" = check ] && pkgs="$pkgs python3 python3-venv python3-pip python3-setuptools python3-wheel python3-pytest python3-numpy python3-matplotlib python3-yaml mypy"
# The shared store's tests (issue 38): a throwaway PostgreSQL server
# (tests/pg_server.sh) and libpq, which autotune loads only for a
# postgresql:// store.
[ "$1" = check ] && pkgs="$pkgs postgresql libpq5"
need=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
        need="$need $p"
done
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "autotune: installing$need (Debian packages the ${1:-build} needs)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends $need \
        >/dev/null && exit 0
    echo "autotune: apt-get failed"
fi
echo "autotune: missing Debian packages:$need"
echo "autotune: run: sudo apt-get install$need"
exit 1
