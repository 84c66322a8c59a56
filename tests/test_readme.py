"""The README's tour program rips, builds and prints what the README says."""
import os
import re

from conftest import BACKENDS, ROOT, run


def test_readme_tour_program_prints_sum_on_every_backend(tmp_path, ripcc):
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    source = re.search(r"```c\n(.*?)```", readme, re.S).group(1)
    path = tmp_path / "tour.c"
    path.write_text(source)
    for backend in BACKENDS:
        assert run([ripcc(str(path), backend)]).stdout == b"sum 55\n"


def test_readme_posix_tour_program_prints_the_same_built_plainly_and_ripped(tmp_path, ripcc):
    """The tour's plain POSIX program, built unchanged with --posix on each
    backend and with cc, prints what the README says."""
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    source = next(block for block in re.findall(r"```c\n(.*?)```", readme, re.S)
                  if block.startswith("/* pipeline.c"))
    path = tmp_path / "pipeline.c"
    path.write_text(source)
    plain = tmp_path / "pipeline-cc"
    assert run(["cc", "-pthread", "-Wall", "-Wextra", "-Werror", str(path), "-o",
                str(plain)]).returncode == 0
    assert run([str(plain)]).stdout == b"read 13000 bytes\n"
    for backend in BACKENDS:
        exe = ripcc(str(path), backend, extra=["--posix"])
        assert run([exe], timeout=60).stdout == b"read 13000 bytes\n"
    # as the README says: reader is a frame of 104 bytes, its read and
    # pthread_mutex_lock resume points
    from conftest import RIPPER
    r = run([RIPPER, "--posix", "--stats", str(path), "-o", str(tmp_path / "pipeline.rip.c")])
    assert r.returncode == 0, r.stderr.decode()
    assert re.search(r"^reader\s+104\s+2\s", r.stderr.decode(), re.M), r.stderr.decode()
