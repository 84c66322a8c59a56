"""Builds the stack-ripper distribution (metadata in pyproject.toml): the
ripper package, its commands ripper and ripcc, and the C runtime's sources
inside the package, from which an installed ripcc builds its libraries on
first use (ripper/runtime.py); the manual pages ripper.1 and ripcc.1."""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildPyWithRuntime(build_py):
    """build_py, and runtime/include and runtime/src copied into the
    package as ripper/runtime/."""

    def run(self):
        super().run()
        for part in ("include", "src"):
            dst = os.path.join(self.build_lib, "ripper", "runtime", part)
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(os.path.join(HERE, "runtime", part), dst,
                            ignore=shutil.ignore_patterns("*.o", "*.a"))


setup(cmdclass={"build_py": BuildPyWithRuntime},
      # the wheel's data: pip puts them in PREFIX/share/man/man1 (the
      # virtualenv's), where man finds them from PATH's PREFIX/bin
      data_files=[("share/man/man1", ["man/ripper.1", "man/ripcc.1"])],
      # not build/: the Makefile's build/lib holds the runtime libraries, which
      # setuptools' default staging folder (build/lib) would pack into the wheel
      options={"build": {"build_base": "build/python"}})
