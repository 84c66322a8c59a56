"""ripper/abi.py spells the frame ABI for the code ripper writes; the
runtime's rip_frame.h is the C side.  Every ripped file checks at compile
time that the two agree."""
import os
import subprocess

from conftest import ROOT
from ripper import abi

FRAME_H = os.path.join(ROOT, "runtime", "src", "rip", "rip_frame.h")


def compiles(text, tmp_path):
    src = tmp_path / "abi.c"
    src.write_text(text)
    r = subprocess.run(["cc", "-std=c89", "-Wall", "-Werror", "-c", str(src), "-o",
                        str(tmp_path / "abi.o"), "-include", FRAME_H], capture_output=True)
    return r.returncode == 0


def test_the_runtime_header_has_the_sizes_ripper_generates_code_for(tmp_path):
    assert compiles(abi.check() + "\n", tmp_path)


def test_the_check_fails_when_the_sizes_differ(tmp_path):
    wrong = abi.check().replace("== %d" % abi.FRAME_HEADER, "== %d" % (abi.FRAME_HEADER + 8))
    assert not compiles(wrong + "\n", tmp_path)


def test_the_check_names_the_layout_that_differs(tmp_path):
    wrong = abi.check().replace("rip__frame_max_align == %d" % abi.MAX_ALIGN,
                                "rip__frame_max_align == %d" % (abi.MAX_ALIGN * 2))
    src = tmp_path / "abi.c"
    src.write_text(wrong + "\n")
    r = subprocess.run(["cc", "-std=c89", "-c", str(src), "-o", str(tmp_path / "abi.o"),
                        "-include", FRAME_H], capture_output=True, text=True)
    assert r.returncode != 0 and "rip__abi_max_align" in r.stderr, r.stderr


def test_every_runtime_name_ripped_code_uses_is_the_runtimes():
    """abi.RUNTIME_NAMES: the functions, types and constants ripped code
    calls, each declared (or, the version symbol, defined) by the runtime."""
    import glob
    import re
    text = "".join(open(p).read() for p in glob.glob(os.path.join(ROOT, "runtime", "src",
                                                                  "rip", "*.[ch]")))
    for name in abi.RUNTIME_NAMES:
        assert re.search(r"\b%s\b\s*(\(|=|;|\{|\[)" % re.escape(name), text), name
