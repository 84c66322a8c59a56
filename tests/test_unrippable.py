"""What cannot be ripped is an error with a hint, never wrong code: every
tests/unrippable/NAME.c starts with `/* error: TEXT */` and ripper must
exit 1 with a file:line:col diagnostic containing TEXT, and a note."""
import glob
import os
import re

import pytest

from conftest import RIPPER, ROOT, run

CASES = sorted(glob.glob(os.path.join(ROOT, "tests", "unrippable", "*.c")))


@pytest.mark.parametrize("source", CASES, ids=lambda p: os.path.basename(p)[:-2])
def test_unrippable_input_is_a_clear_error(source, tmp_path):
    with open(source) as f:
        expected = re.match(r"/\* error: (.*?) \*/", f.read()).group(1)
    out = tmp_path / "out.c"
    r = run([RIPPER, source, "-o", str(out)])
    err = r.stderr.decode()
    assert r.returncode == 1, err
    assert re.search(r"^%s:\d+:\d+: error: .*%s" % (re.escape(source), re.escape(expected)),
                     err, re.M), err
    assert "note:" in err and "Traceback" not in err
    assert not out.exists()
