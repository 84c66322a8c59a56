"""make mutate's list (tests/mutations.txt) stays true to the tree: every
break names a file it still applies to, once, and tests that exist."""
import os
import sys

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "fuzz"))
import mutate  # noqa: E402


def test_every_break_applies_exactly_once_to_its_file():
    breaks = mutate.read_list()
    assert len(breaks) >= 13
    for m in breaks:
        with open(os.path.join(ROOT, m.file)) as f:
            assert f.read().count(m.find) == 1, "%s: %s" % (m.line, m.promise)
        assert m.find != m.replace


def test_every_break_names_test_files_that_exist():
    for m in mutate.read_list():
        files = [t.split("::")[0] for t in m.tests if t.startswith("tests/")]
        assert files, m.promise
        assert all(os.path.exists(os.path.join(ROOT, f)) for f in files), m.promise


def test_a_break_applied_to_a_copy_changes_only_that_copy(tmp_path):
    m = mutate.read_list()[0]
    mutate.copy_tree([m.file], ROOT, str(tmp_path))
    assert mutate.apply(m, str(tmp_path)) is None
    with open(os.path.join(str(tmp_path), m.file)) as f:
        assert m.replace in f.read()
    with open(os.path.join(ROOT, m.file)) as f:
        assert m.find in f.read()
    assert "not once" in mutate.apply(m, str(tmp_path))    # applied already: stale
