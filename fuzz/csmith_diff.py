"""csmith_diff.py -- hold ripper against C that nobody here wrote.

For each seed: csmith generates a random C program; it is built twice, as
it is with cc and ripped with `ripcc --all-async` (every function async,
yielding once on entry, main the first task), and both must print the
same checksum and exit the same way.  Programs whose plain build runs past
the time limit are skipped (csmith can generate very long loops).

    python fuzz/csmith_diff.py [--seeds 1-100] [--jobs 2] [--keep DIR]
"""
import os
import shlex
import shutil
import subprocess
import sys

from ripper.cli import runtime_library

from difftest import RIPCC, arguments, run_seeds
from difftest import counts as counts_of

CSMITH_INCLUDE = "/usr/include/csmith"
RUN_SECONDS = 10
CFLAGS = ["-w", "-O1", "-I" + CSMITH_INCLUDE]


def available():
    return shutil.which("csmith") is not None and \
        os.path.exists(os.path.join(CSMITH_INCLUDE, "csmith.h"))


def check_seed(seed, workdir):
    """('match' | 'mismatch' | 'skip' | 'rip-error', detail) for one seed."""
    src = os.path.join(workdir, "s%d.c" % seed)
    with open(src, "w") as f:
        subprocess.run(["csmith", "--seed", str(seed)], stdout=f, check=True, timeout=60)
    plain, ripped = src[:-2] + "-plain", src[:-2] + "-rip"
    cc = shlex.split(os.environ.get("CC", "cc")) + runtime_library("rip")[1]  # RIP_SAN=1: sanitizers
    r = subprocess.run(cc + CFLAGS + [src, "-o", plain], capture_output=True)
    if r.returncode:
        return "skip", "plain build failed"
    try:
        want = subprocess.run([plain], capture_output=True, timeout=RUN_SECONDS)
    except subprocess.TimeoutExpired:
        return "skip", "plain run over %d s" % RUN_SECONDS
    r = subprocess.run([RIPCC, "--all-async"] + CFLAGS + [src, "-o", ripped], capture_output=True)
    if r.returncode:
        return "rip-error", r.stderr.decode(errors="replace")[-2000:]
    try:
        got = subprocess.run([ripped], capture_output=True, timeout=RUN_SECONDS * 20)
    except subprocess.TimeoutExpired:
        return "mismatch", "ripped run timed out"
    if (got.returncode, got.stdout) != (want.returncode, want.stdout):
        return "mismatch", "exit %d vs %d; stdout %r vs %r" % (
            got.returncode, want.returncode, got.stdout[-200:], want.stdout[-200:])
    return "match", want.stdout.decode(errors="replace").strip()


def run(seeds, jobs=2, keep=None):
    """{seed: (verdict, detail)} for all seeds."""
    return run_seeds(check_seed, seeds, jobs, keep, "csmith-diff-")


def main():
    args = arguments(__doc__)
    if not available():
        print("csmith_diff: csmith is not installed (apt-get install csmith libcsmith-dev)",
              file=sys.stderr)
        return 2
    counts = counts_of(run(args.seeds, args.jobs, args.keep))
    compared = counts.get("match", 0) + counts.get("mismatch", 0) + counts.get("rip-error", 0)
    print("csmith --all-async: %d of %d programs matched the plain build "
          "(%d mismatched, %d not ripped, %d skipped: plain build too slow or failed)" % (
              counts.get("match", 0), compared, counts.get("mismatch", 0),
              counts.get("rip-error", 0), counts.get("skip", 0)))
    return 0 if compared == counts.get("match", 0) else 1


if __name__ == "__main__":
    sys.exit(main())
