"""bench/kvd.py --quick (section 6 of make bench): the benchmark itself
works: kvd built plainly and with ripcc --posix three ways, each loaded at
20 and 200 connections, gives a row with numbers (not that they are fast:
the machine is shared)."""
import os
import re
import subprocess
import sys

from conftest import ROOT

BUILDS = ("plain", "rip", "ucontext", "threads")


def number(cell):
    """'12,345' or '1.02' -> float; 'n/a' -> None."""
    return None if cell == "n/a" else float(cell.replace(",", ""))


def test_quick_mode_gives_every_build_a_row_of_numbers(tmp_path):
    r = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "kvd.py"), str(tmp_path),
                        "--quick"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    rows = {}
    for line in r.stdout.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 13 and cells[0] in BUILDS:
            rows[(cells[0], int(cells[1].replace(",", "")))] = cells
    assert set(rows) == {(b, n) for b in BUILDS for n in (20, 200)}, r.stdout
    for (build, conns), (_, _, opened, rps, x_rps, per_cpu, x_cpu, kib, x_kib, threads,
                         server, client, errors) in rows.items():
        assert opened == "all", (build, conns, opened)
        assert number(rps) > 0 and number(per_cpu) > 0, (build, conns, rps, per_cpu)
        assert number(kib) > 0, (build, conns, kib)           # each connection costs something
        assert errors == "0", (build, conns, errors)
        assert re.fullmatch(r"\d+%", server) and re.fullmatch(r"\d+%", client), (server, client)
        for ratio in (x_rps, x_cpu, x_kib):
            assert number(ratio) > 0
        if build == "plain":
            assert number(x_rps) == 1.0
        # a thread per connection where the build has threads, none on rip
        # and ucontext: the rows measure what they say
        if build in ("plain", "threads"):
            assert number(threads) >= conns + 1, (build, conns, threads)
        else:
            assert number(threads) < 20, (build, conns, threads)
    assert "## 6. kvd" in r.stdout and "ulimit -Hn" in r.stdout
