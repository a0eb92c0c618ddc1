"""Builds the C library and the autotune command from the repository
around this folder (make, as the README's build does) and bundles them
in the package (autotune/_native/). AUTOTUNE_PREBUILT=DIR takes
libautotune.so.* and autotune from DIR instead (a machine without the
build's Debian packages). The wheel is Linux x86-64, any Python 3."""
import glob
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # pragma: no cover
    bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def native_files():
    pre = os.environ.get("AUTOTUNE_PREBUILT")
    if pre:
        so = sorted(glob.glob(os.path.join(pre, "libautotune.so.*")))
        cli = os.path.join(pre, "autotune")
    else:
        if not os.path.exists(os.path.join(ROOT, "include", "autotune.h")):
            raise SystemExit("autotune: build from the repository's python/ "
                             "folder (pip install ./python), or set "
                             "AUTOTUNE_PREBUILT to a folder holding "
                             "libautotune.so.* and autotune")
        subprocess.check_call(["make", "-C", ROOT, "build/autotune", "libs"])
        so = sorted(glob.glob(os.path.join(ROOT, "build", "pic",
                                           "libautotune.so.*")))
        cli = os.path.join(ROOT, "build", "autotune")
    if not so or not os.path.exists(cli):
        raise SystemExit(f"autotune: libautotune.so.* or autotune missing "
                         f"(found {so}, {cli})")
    return so[-1], cli


class BuildNative(build_py):
    def run(self):
        super().run()
        so, cli = native_files()
        dest = os.path.join(self.build_lib, "autotune", "_native")
        os.makedirs(dest, exist_ok=True)
        shutil.copy2(so, os.path.join(dest, "libautotune.so.1"))
        shutil.copy2(cli, os.path.join(dest, "autotune"))


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


cmds = {"build_py": BuildNative}
if bdist_wheel is not None:
    class Wheel(bdist_wheel):
        def get_tag(self):
            _, _, plat = super().get_tag()
            return "py3", "none", plat
    cmds["bdist_wheel"] = Wheel

setup(cmdclass=cmds, distclass=BinaryDistribution)
