"""C nobody here wrote, a short sample of `make fuzz-reallibs`: picohttpparser
(as PyPI's pypicohp carries it) and lz4 (PyPI's lz4 sdist), each built with
its driver (fuzz/reallibs/) as one translation unit, plain and with
`ripcc --all-async`, and run on the same inputs: exit status and output
must match.  Skipped when the package registry cannot be reached."""
import os
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "fuzz"))
import real_libs  # noqa: E402


def verdicts(name, work):
    lib = real_libs.Library(name, str(work))
    try:
        real_libs.LIBRARIES[name](lib)
    except real_libs.Skip as s:
        pytest.skip(str(s))
    return lib


def test_picohttpparser_ripped_all_async_parses_every_message_as_plain(tmp_path):
    lib = verdicts("picohttpparser", tmp_path)
    bad = [r for r in lib.results if r[1] != "match"]
    assert lib.results and not bad, "\n".join(map(str, bad + lib.notes))


def test_lz4_ripped_all_async_compresses_and_decompresses_as_plain(tmp_path):
    lib = verdicts("lz4", tmp_path)
    bad = [r for r in lib.results if r[1] != "match"]
    assert lib.results and not bad, "\n".join(map(str, bad + lib.notes))
