"""ripper held against gcc's torture tests: a fixed, varied sample of
gcc.c-torture/execute, each ripped with --all-async, behaves as its plain
build.  `make fuzz-torture` runs the whole suite (fuzz/torture.py)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fuzz"))
import suite_diff  # noqa: E402
import torture  # noqa: E402

SAMPLE = [
    # structs, bitfields, packing, aliasing
    "20000703-1", "bitfld-3", "bitfld-5", "packed-2", "struct-cpy-1", "zero-struct-2",
    "zerolen-1", "pta-field-1", "mayalias-2", "pr34154",
    # integers, shifts, division, builtins
    "ashrdi-1", "shiftdi", "divcmp-3", "ffs-2", "bswap-3", "vrp-3", "pr68381",
    # control flow: loops, switch, computed goto
    "doloop-1", "loop-ivopts-1", "switch-1", "comp-goto-1", "20020810-1", "pr40668",
    # calls: varargs, printf family, gnu89 inline, wide characters
    "stdarg-2", "va-arg-21", "vprintf-1", "fprintf-1", "restrict-1", "wchar_t-1",
    "strlen-3", "memchr-1", "complex-7", "float-floor",
    # ieee/ with the flags of its .x files
    "ieee/compare-fp-4", "ieee/inf-2", "ieee/cdivchkd",
    # refused today (libclang errors on K&R C, a return written by a macro)
    "920721-3", "991202-2", "20040409-1w",
    # skipped: a test of several files
    "builtins/strlen",
]


@pytest.fixture(scope="module")
def results():
    if torture.suite_folder() is None:
        pytest.skip(torture.missing_note() + " (make test-deps)")
    return torture.run(SAMPLE, jobs=2)


def test_a_sample_of_gccs_torture_tests_ripped_all_async_behaves_as_built_plain(results):
    assert sorted(results) == sorted(SAMPLE)
    bad = {n: r for n, r in results.items() if r[0] in suite_diff.BAD}
    assert not bad, suite_diff.summary("torture sample", results) + "\n" + repr(bad)
    matched = sum(1 for v, _ in results.values() if v == "match")
    assert matched >= len(SAMPLE) * 3 // 4, suite_diff.summary("torture sample", results)


def test_the_directives_that_decide_flags_and_skips_are_honoured():
    flags, skip = torture.apply_directives(
        '/* { dg-options "-fwrapv" } */\n'
        '/* { dg-additional-options "-mno-stv" { target i?86-*-* x86_64-*-* } } */\n'
        '/* { dg-additional-options "-DSIGNAL_SUPPRESS" { target { ! signal } } } */\n'
        '/* { dg-skip-if "requires alloca" { ! alloca } { "-O0" } { "" } } */\n',
        ["-O2", "-w"])
    assert skip is None
    assert flags == (["-fwrapv", "-mno-stv"] if torture.TRIPLET.startswith(("x86_64", "i"))
                     else ["-fwrapv"])
    assert torture.apply_directives('/* { dg-skip-if "x" { *-*-* } { "-O2" } { "" } } */',
                                    ["-O2", "-w"])[1] == "dg-skip-if here: x"
    assert torture.apply_directives('/* { dg-skip-if "x" { *-*-* } "-O1" "" } */',
                                    ["-O2", "-w"])[1] is None
    assert torture.apply_directives("/* { dg-do compile } */", [])[1].startswith("dg-do compile")
    with pytest.raises(torture.Unknown):
        torture.apply_directives("/* { dg-require-effective-target no_such_target } */", [])
