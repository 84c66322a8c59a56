"""ripper held against C nobody here wrote: a fixed batch of csmith programs,
ripped with --all-async, print what the plain cc build prints.  `make fuzz`
runs many more seeds (fuzz/csmith_diff.py)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fuzz"))
import csmith_diff  # noqa: E402

SEEDS = [1, 2, 3, 4, 5, 6]


@pytest.mark.skipif(not csmith_diff.available(), reason="csmith is not installed (make test-deps)")
def test_csmith_programs_ripped_all_async_match_the_plain_build():
    results = csmith_diff.run(SEEDS, jobs=2)
    bad = {s: r for s, r in results.items() if r[0] not in ("match", "skip")}
    assert not bad, bad
    assert sum(1 for r in results.values() if r[0] == "match") >= len(SEEDS) // 2
