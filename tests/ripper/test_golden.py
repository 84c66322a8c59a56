"""Golden before/after files, one statement or expression form each
(tests/ripper/golden/NAME.c and NAME.normalized): what normalize.py makes
of function `form`, as `ripper --stage normalize` shows it; and small
programs ripped whole (golden/ripped/NAME.c and NAME.ripped: the file as
ripper writes it, after the runtime's headers, without linemarkers).
Read them as the documentation of the lowering; when a change is meant,
rewrite them with RIPPER_UPDATE_GOLDEN=1 and read the diff.  (That the
forms run right is tests/programs' job.)"""
import glob
import os
import re

import pytest

from conftest import ROOT
from ripper import stages

GOLDEN = os.path.join(ROOT, "tests", "ripper", "golden")
CASES = sorted(glob.glob(os.path.join(GOLDEN, "*.c")))
RIPPED = sorted(glob.glob(os.path.join(GOLDEN, "ripped", "*.c")))


def normalized_form(path):
    with open(path, "rb") as f:
        text = stages.run("normalize", path, f.read(), [], []).decode()
    block = text[text.index("/* form,"):]
    return re.sub(r"^/\* form, [^*]*\*/", "/* form */", block)


def matches_golden(got, golden):
    """`got` is the text of file `golden` (which RIPPER_UPDATE_GOLDEN=1 rewrites)."""
    if os.environ.get("RIPPER_UPDATE_GOLDEN"):
        with open(golden, "w") as f:
            f.write(got)
    with open(golden) as f:
        return got == f.read()


@pytest.mark.parametrize("source", CASES, ids=lambda p: os.path.basename(p)[:-2])
def test_normalized_form_matches_its_golden_file(source):
    assert matches_golden(normalized_form(source), source[:-2] + ".normalized")


def ripped_form(path):
    """The ripped file from where the source resumes after its #include,
    linemarkers dropped, the source's path in the line tables (rip_dump_tasks)
    as its base name, the same on every machine."""
    with open(path, "rb") as f:
        text = stages.run("lower", path, f.read(), [], []).decode()
    text = text.replace('"%s", rip__lines_' % path, '"%s", rip__lines_' % os.path.basename(path))
    marker = re.search(r'^# \d+ "[^"]*%s" 2$' % re.escape(os.path.basename(path)), text, re.M)
    lines = text[marker.end():].split("\n")
    return "\n".join(l.strip() for l in lines if l.strip() and not l.startswith("# ")) + "\n"


@pytest.mark.parametrize("source", RIPPED, ids=lambda p: os.path.basename(p)[:-2])
def test_ripped_program_matches_its_golden_file(source):
    assert matches_golden(ripped_form(source), source[:-2] + ".ripped")
