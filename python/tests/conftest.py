"""The tests import the installed package (make check installs it into
build/pyenv first), never the source folder beside them."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# pytest puts the tests' folder on sys.path, not python/: drop anything
# that would shadow the installed package with the sources.
sys.path[:] = [p for p in sys.path
               if os.path.abspath(p or ".") != os.path.join(ROOT, "python")]


def repo(*parts):
    """A file of the repository (records, specs)."""
    return os.path.join(ROOT, *parts)
