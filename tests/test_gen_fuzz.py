"""Random async-heavy programs (fuzz/gen_async.py: suspensions in every
statement and expression form, recursion, pointers into frames, several
tasks) print the same bytes built for rip and for ucontext.  `make fuzz`
runs many more seeds (fuzz/gen_diff.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fuzz"))
import gen_async  # noqa: E402
import gen_diff  # noqa: E402

SEEDS = list(range(1, 31))


def test_generated_programs_ripped_match_the_ucontext_build():
    results = gen_diff.run(SEEDS, jobs=2)
    bad = {s: r for s, r in results.items() if r[0] != "match"}
    assert not bad, gen_diff.summary(results) + "\n" + repr(bad)


def test_the_generator_is_deterministic_by_seed():
    assert gen_async.generate(7) == gen_async.generate(7)
    assert gen_async.generate(7) != gen_async.generate(8)
