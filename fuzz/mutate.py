"""mutate.py -- does every promise have a test that fails when it breaks?

Reads tests/mutations.txt: blocks of a promise the docs make, a deliberate
break of it (a text found exactly once in one file, and what it becomes)
and the tests that claim the promise.  Each break is applied alone to a
copy of the tree (the working tree as it is, ignored files left out, the
runtime built once and copied), the tests run there with this checkout's
Python, and the break must make them fail.  Exit 1 if any break goes
unnoticed, or no longer applies (its text is gone: the list went stale).

    python fuzz/mutate.py                   every break (make mutate)
    python fuzz/mutate.py --only equiv      those whose promise says "equiv"
    python fuzz/mutate.py --list
"""

import argparse
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST = os.path.join(ROOT, "tests", "mutations.txt")
FIELDS = ("promise", "file", "find", "replace", "tests")
TEST_SECONDS = 900              # one mutation's tests, at most


class Mutation:
    def __init__(self, fields, line):
        self.line = line                            # where its block starts in the list
        self.promise = fields["promise"]            # what the docs say
        self.file = fields["file"]                  # relative to the tree's root
        self.find = _unescape(fields["find"])       # occurs exactly once in file
        self.replace = _unescape(fields["replace"])
        self.tests = shlex.split(fields["tests"])   # pytest arguments


def _unescape(text):
    return text.replace("\\n", "\n")


def read_list(path=LIST):
    """The Mutations of the list, in order; SystemExit naming the line
    of a malformed block."""
    out, fields, start = [], {}, 0
    with open(path) as f:
        lines = f.read().split("\n") + [""]
    for i, line in enumerate(lines, 1):
        if line.startswith("#"):
            continue
        if not line.strip():
            if fields:
                missing = [k for k in FIELDS if k not in fields]
                if missing:
                    sys.exit("%s:%d: error: a block without %s" % (path, start,
                                                                   ", ".join(missing)))
                out.append(Mutation(fields, start))
                fields = {}
            continue
        key, sep, value = line.partition(": ")
        if not sep or key not in FIELDS:
            sys.exit("%s:%d: error: want 'KEY: value', KEY one of %s" % (path, i,
                                                                        ", ".join(FIELDS)))
        if not fields:
            start = i
        fields[key] = value
    return out


def tree_files():
    """The files of the working tree, tracked or not, ignored ones left out."""
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, check=True).stdout
    return [p for p in out.decode().split("\0") if p and os.path.isfile(os.path.join(ROOT, p))]


def copy_tree(files, src, dst):
    for p in files:
        os.makedirs(os.path.dirname(os.path.join(dst, p)), exist_ok=True)
        shutil.copy2(os.path.join(src, p), os.path.join(dst, p))


def run_group(cmd, cwd, env, timeout):
    """(exit status, output) of cmd in a process group of its own, which
    is ended whole when it overruns."""
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out.decode(errors="replace")
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return None, out.decode(errors="replace")
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def environment(tree):
    """This checkout's Python, importing ripper from the copy `tree`.
    ripcc is its Python driver: the installed native front has this
    checkout's runtime compiled in, not the copy's (tests/test_ripcc_native.py
    builds the copy's own)."""
    env = dict(os.environ, PYTHONPATH=tree, PYTHONDONTWRITEBYTECODE="1", RIPCC_NATIVE="0")
    env.pop("RIP_SAN", None)
    return env


def apply(m, tree):
    """Apply mutation m in `tree`; an error message, or None."""
    path = os.path.join(tree, m.file)
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        return "cannot read %s: %s" % (m.file, e.strerror)
    found = text.count(m.find)
    if found != 1:
        return "its text occurs %d times in %s, not once: the list is stale" % (found, m.file)
    with open(path, "w") as f:
        f.write(text.replace(m.find, m.replace))
    return None


def pytest(python, tests):
    return [python, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider"] + tests


def _tail(out, lines=15):
    return "\n".join("          " + x for x in out.rstrip().split("\n")[-lines:])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="only the breaks whose promise contains this text")
    ap.add_argument("--list", action="store_true", help="list the breaks and their tests")
    ap.add_argument("--keep", help="keep the copies in this folder")
    args = ap.parse_args(argv)
    mutations = [m for m in read_list() if not args.only or args.only in m.promise]
    if args.list or not mutations:
        for m in mutations:
            print("%s: %s\n    %s; tests: %s" % (os.path.basename(LIST) + ":%d" % m.line,
                                                 m.promise, m.file, " ".join(m.tests)))
        return 0 if mutations else 2
    python = sys.executable
    work = args.keep or tempfile.mkdtemp(prefix="ripper-mutate-")
    os.makedirs(work, exist_ok=True)
    files = tree_files()
    base = os.path.join(work, "base")
    shutil.rmtree(base, ignore_errors=True)
    copy_tree(files, ROOT, base)
    code, out = run_group(["make", "-s", "runtime"], base, environment(base), 900)
    if code != 0:
        sys.stdout.write(out)
        sys.exit("mutate: the unbroken copy's runtime does not build")
    built = os.path.join(base, "build")
    failures = 0
    baseline = {}               # tests -> the failure they show unbroken, or None
    try:
        for i, m in enumerate(mutations, 1):
            key = tuple(m.tests)
            if key not in baseline:     # the tests must pass before anything is broken
                code, out = run_group(pytest(python, m.tests), base, environment(base),
                                      TEST_SECONDS)
                baseline[key] = None if code == 0 else \
                    "no test matched %s" % " ".join(m.tests) if code == 5 else \
                    "the tests fail with nothing broken (exit %s):\n%s" % (code, _tail(out))
            if baseline[key] is not None:
                failures += 1
                print("FAIL      %s\n          %s:%d: %s" % (m.promise, os.path.relpath(LIST, ROOT),
                                                           m.line, baseline[key]))
                continue
            tree = os.path.join(work, "m%d" % i)
            shutil.rmtree(tree, ignore_errors=True)
            copy_tree(files, base, tree)
            shutil.copytree(built, os.path.join(tree, "build"), symlinks=True)
            problem = apply(m, tree)
            began = time.time()
            if problem is None:
                code, out = run_group(pytest(python, m.tests), tree, environment(tree),
                                      TEST_SECONDS)
                if code == 0:
                    problem = "UNNOTICED: the tests passed with the promise broken\n" + _tail(out, 3)
                elif code is None:
                    problem = None  # a hang the break caused is noticed too
            verdict = "noticed" if problem is None else problem
            print("%-9s %s (%.0f s)" % ("ok" if problem is None else "FAIL", m.promise,
                                        time.time() - began))
            if problem is not None:
                failures += 1
                print("          %s:%d: %s" % (os.path.relpath(LIST, ROOT), m.line, verdict))
            sys.stdout.flush()
            if not args.keep:
                shutil.rmtree(tree, ignore_errors=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("mutate: %d of %d breaks noticed by the tests that claim them" %
          (len(mutations) - failures, len(mutations)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
