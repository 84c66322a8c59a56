"""ripper/emit.py: edits on the preprocessed text, applied in one place;
untouched text byte for byte, and every copied piece on its own line."""
import pytest

from ripper.emit import Overlap, Rewriter
from ripper.preprocess import LineMap, Preprocessed

TEXT = b'# 1 "a.c"\nint x;\nint y = 1;\n\nint z;\n'


def rewriter(text=TEXT):
    return Rewriter(Preprocessed("a.c", text, LineMap(text, "a.c")))


def test_untouched_text_stays_byte_for_byte():
    assert rewriter().render() == TEXT


def test_an_edit_replaces_its_range():
    rw = rewriter()
    at = TEXT.index(b"1;")
    rw.replace(at, at + 1, [("2", None)])
    assert rw.render() == TEXT.replace(b"= 1", b"= 2")


def test_overlapping_edits_are_a_bug_not_output():
    rw = rewriter()
    at = TEXT.index(b"int y")
    rw.replace(at, at + 10, [("", None)])
    with pytest.raises(Overlap):
        rw.replace(at + 4, at + 5, [("w", None)])


def test_insertions_at_one_place_keep_their_order():
    rw = rewriter()
    at = TEXT.index(b"int z")
    rw.insert(at, [("A ", None)])
    rw.insert(at, [("B ", None)])
    assert b"A B int z;" in rw.render()


def line_in_output(out, needle):
    """The line the compiler gives `needle` in rendered output."""
    return LineMap(out, "a.c").where(out.index(needle))[1]


def test_a_piece_copied_from_a_later_line_is_put_back_on_its_line():
    """Generated code moved `z` (line 4) before line 2: the output says where
    it came from, and brings the text after it back to line 2."""
    rw = rewriter()
    y = TEXT.index(b"int y")
    z = TEXT.index(b"z;")
    rw.insert(y, [("int w = ", None), ("z", z), ("; ", None)])
    out = rw.render()
    assert line_in_output(out, b"z; ") == 4
    assert line_in_output(out, b"int y") == 2
    assert line_in_output(out, b"int z") == 4


def test_generated_lines_are_followed_by_a_resync():
    rw = rewriter()
    y = TEXT.index(b"int y")
    rw.insert(y, [("struct s { int a; };\nstruct t { int b; };\n", None)])
    out = rw.render()
    assert line_in_output(out, b"int y") == 2 and line_in_output(out, b"int z") == 4
