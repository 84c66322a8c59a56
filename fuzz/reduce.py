"""reduce.py -- cut a failing generated program down to what still fails.

    python fuzz/reduce.py prog.c [-o small.c]

Removes runs of lines (halves, quarters, ... single lines: ddmin) while
gen_diff's verdict on the program stays the same (mismatch, rip-error or
rip-warning; for the last two, also the first message's kind).  A removal
that breaks the build or makes the plain build warn counts as not failing,
so the result is still a valid program; read it before making it a
regression test (an initializer removed can leave a value unspecified).
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

from gen_diff import check_source


def signature(src):
    """What must stay the same: the verdict and, for a build failure, the
    kind of its first error or warning."""
    verdict, detail = check_source(src)
    m = re.search(r"(error|warning): ([^'\"‘(]*)", detail)
    return verdict, m.group(0) if m and verdict != "mismatch" else ""


def reduce(lines, still_fails):
    """ddmin over lines: the shortest list found for which still_fails."""
    n = 2
    while len(lines) >= 2:
        size = max(1, len(lines) // n)
        removed = False
        for start in range(0, len(lines), size):
            candidate = lines[:start] + lines[start + size:]
            if candidate and still_fails(candidate):
                lines, removed = candidate, True
                print("reduce: %d lines" % len(lines), file=sys.stderr, flush=True)
                break
        if removed:
            n = max(n - 1, 2)
        elif size == 1:
            break
        else:
            n = min(n * 2, len(lines))
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source")
    ap.add_argument("-o", "--output", help="where to write the result (default: stdout)")
    args = ap.parse_args()
    with open(args.source) as f:
        lines = f.read().splitlines(keepends=True)
    workdir = tempfile.mkdtemp(prefix="reduce-")
    src = os.path.join(workdir, "r.c")

    def fails(candidate):
        with open(src, "w") as f:
            f.writelines(candidate)
        return signature(src) == want

    with open(src, "w") as f:
        f.writelines(lines)
    want = signature(src)
    if want[0] == "match" or want[0] == "bad-program":
        print("reduce: %s does not fail (%s)" % (args.source, want[0]), file=sys.stderr)
        return 2
    try:
        text = "".join(reduce(lines, fails))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
