"""Random async-heavy programs (fuzz/gen_async.py: suspensions in every
statement and expression form, recursion, pointers into frames, several
tasks) print the same bytes built for rip and for ucontext.  `make fuzz`
runs many more seeds (fuzz/gen_diff.py), `make fuzz-posix` the --posix ones.

The generator's construct classes (statement expressions left by jumps,
macros that do more than a call, unevaluated operands, bit-fields, ...)
each hold a class of bug ripper once had; the same seeds run on the base
programs and with every class.  (python fuzz/gen_diff.py --seeds 1-20
--classes NAME isolates one class.)"""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "fuzz"))
import gen_async  # noqa: E402
import gen_diff  # noqa: E402

SEEDS = list(range(1, 21))         # the base programs take the first 15 (make test's time)


def test_generated_programs_ripped_match_the_ucontext_build():
    results = gen_diff.run(SEEDS[:15], jobs=2, classes=gen_async.BASE)
    bad = {s: r for s, r in results.items() if r[0] != "match"}
    assert not bad, gen_diff.summary(results) + "\n" + repr(bad)


def test_generated_programs_with_every_construct_class_match():
    results = gen_diff.run(SEEDS, jobs=2, classes=gen_async.ALL)
    bad = {s: r for s, r in results.items() if r[0] != "match"}
    assert not bad, gen_diff.summary(results) + "\n" + repr(bad)


def test_the_generator_is_deterministic_by_seed():
    assert gen_async.generate(7) == gen_async.generate(7)
    assert gen_async.generate(7) != gen_async.generate(8)
    base = gen_async.generate(7, gen_async.BASE)
    assert base == gen_async.generate(7, ())
    assert base != gen_async.generate(7) and "classes" not in base.split("\n")[0]


def test_construct_classes_are_chosen_by_name():
    assert gen_async.parse_classes("all") == gen_async.ALL
    assert gen_async.parse_classes("base") == gen_async.BASE
    assert gen_async.parse_classes("uneval,stmtexpr") == ("stmtexpr", "uneval")
    assert "asmgoto" not in gen_async.parse_classes("all,-asmgoto")
    with pytest.raises(ValueError):
        gen_async.parse_classes("nonesuch")
    for name in gen_async.ALL:    # each class alone names itself in the program
        text = gen_async.generate(3, (name,))
        assert text.split("\n")[0].endswith("classes %s */" % name)


def test_generated_posix_programs_match_their_cc_pthread_build():
    """gen_async --posix: the programs of plain POSIX calls (pipes, a
    socketpair, pthreads, a mutex, a condition variable) print with ripcc
    --posix on ucontext and rip what their cc -pthread build prints (all
    six fail on the ripper of before 953338b and 00bc087: file-scope
    pointers to pthread_create and pthread_mutex_unlock, pthread_create
    taken as a pointer in a plain form, several static functions in one
    declaration)."""
    results = gen_diff.run(list(range(1, 7)), jobs=2, classes=gen_async.ALL, posix=True)
    bad = {s: r for s, r in results.items() if r[0] != "match"}
    assert not bad, gen_diff.summary(results, posix=True) + "\n" + repr(bad)
    assert "#include \"rip.h\"" not in gen_async.generate(2, gen_async.ALL, posix=True)
