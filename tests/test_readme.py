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
