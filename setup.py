"""Builds the stack-ripper distribution (metadata in pyproject.toml): the
ripper package, its commands ripper, ripcc-py (the Python driver) and ripcc
(launcher/ripcc.c, the native front that hands ripcc-py what it does not
compile itself), and the C runtime's sources inside the package, from which
an installed ripcc builds its libraries on first use (ripper/runtime.py);
the manual pages ripper.1 and ripcc.1.  The wheel is a platform one
(py3-none-linux_x86_64 and the like): ripcc is a program of the machine."""
import os
import shutil
import subprocess
import sys

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py
from distutils.command.build_scripts import build_scripts  # (setuptools provides it)

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:                 # setuptools before 70.1: the wheel package's
    from wheel.bdist_wheel import bdist_wheel

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


class BuildNativeRipcc(build_scripts):
    """The ripcc command: launcher/ripcc.c compiled with $CC (default cc),
    which finds the runtime the wheel installs beside it; where no C
    compiler builds it, a Python script that is the driver itself."""

    def run(self):
        self.mkpath(self.build_dir)
        out = os.path.join(self.build_dir, "ripcc")
        cc = os.environ.get("CC", "cc").split()
        try:
            version = self.distribution.get_version()     # (its runtime library's name)
            r = subprocess.run(cc + ["-std=gnu11", "-O2", '-DRIPCC_VERSION="%s"' % version,
                                     os.path.join(HERE, "launcher", "ripcc.c"), "-o", out],
                               stderr=subprocess.PIPE)
            built = r.returncode == 0
        except OSError:
            built = False
        if not built:
            self.warn("ripcc's native front did not build: ripcc is the Python driver")
            with open(out, "w") as f:
                f.write("#!%s\nfrom ripper.cli import main_ripcc\nmain_ripcc()\n"
                        % (self.executable or sys.executable))
        os.chmod(out, 0o755)


class WithProgram(Distribution):
    """A distribution with a program in it: built for a platform, and
    installed as a platform's files are (the package in the wheel's root)."""

    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    """A wheel for this platform, any Python 3 (the program is no module)."""

    def get_tag(self):
        return ("py3", "none") + tuple(super().get_tag()[2:])


setup(distclass=WithProgram,
      cmdclass={"build_py": BuildPyWithRuntime, "build_scripts": BuildNativeRipcc,
                "bdist_wheel": PlatformWheel},
      # (its build_scripts compiles the launcher: this only says there is one)
      scripts=["launcher/ripcc.c"],
      # the wheel's data: pip puts them in PREFIX/share/man/man1 (the
      # virtualenv's), where man finds them from PATH's PREFIX/bin
      data_files=[("share/man/man1", ["man/ripper.1", "man/ripcc.1"])],
      # not build/: the Makefile's build/lib holds the runtime libraries, which
      # setuptools' default staging folder (build/lib) would pack into the wheel
      options={"build": {"build_base": "build/python"}})
