"""suite_diff.py -- hold ripper against a folder of third-party test programs.

Each test is one C file.  It is built plain with cc and ripped with
`ripper --all-async` (every function async, yielding once on entry, main
the first task) and compiled against the rip runtime; both run under a
time limit and must exit the same way and print the same stdout.  A test
the plain build does not pass (it fails to build, runs too long, or prints
other than the test's expected-output file when there is one) is skipped.
fuzz/torture.py runs gcc's torture suite through this; given a folder it
runs any suite of single-file tests, c-testsuite's or tinycc's tests2:

    python fuzz/suite_diff.py DIR [--cflags "-std=gnu99"] [--jobs 2] [--only GLOB]
        [--sample N] [--keep DIR] [--report FILE]

Expected output is DIR/NAME.c.expected, DIR/NAME.expected or DIR/NAME.expect,
compared with the plain build's stdout (or stdout and stderr) ignoring
differences in white space.

Verdicts: match; wrong (the ripped build prints or exits differently, or runs
past its limit); no-compile (ripper exited 0 but cc rejects its output);
crash (ripper crashed, hung or reported an internal error, or the ripped
program was killed by a signal where the plain one was not); refused (ripper
exited 1 with a diagnostic, grouped by the message with names and numbers
normalized; an error of libclang's own, which has no hint, is 'libclang
error: ...'); skip.  Exit status 1 when any test is wrong, no-compile or
crash.
"""
import argparse
import dataclasses
import fnmatch
import hashlib
import os
import re
import shlex
import signal
import sys
import time
from typing import List, Optional

from ripper.cli import runtime_library, sanitized

from difftest import ROOT, counts, run_limited, run_seeds

RIPPER = os.path.join(os.path.dirname(sys.executable), "ripper")
OPT = ["-O2"]
BUILD_SECONDS = 120
RIP_SECONDS = 240           # past ripper's own 60 s limit on a libclang parse
RUN_SECONDS = 10            # the plain build; the ripped one gets RIPPED_SLOWER times as long
RIPPED_SLOWER = 6
BAD = ("wrong", "no-compile", "crash")
VERDICTS = ("match",) + BAD + ("refused", "skip")
REPORT_LINES = 12           # lines of output per case in the report


@dataclasses.dataclass
class Case:
    name: str                       # as reported: "pr12345", "ieee/mzero2"
    path: str                       # the C file
    flags: List[str]                # cc flags beside the optimization level
    skip: Optional[str] = None      # why the test cannot run here
    expected: Optional[str] = None  # the file of expected output
    need_exit_zero: bool = False    # the plain build must exit 0 (else: skip)


def cc():
    """The C compiler and the flags every program linked with the rip
    runtime is built with (RIP_SAN=1: the sanitizers), as ripcc uses."""
    return shlex.split(os.environ.get("CC", "cc")) + runtime_library("rip")[1]


def program_env():
    """The environment the tests run in: under RIP_SAN=1 without
    LeakSanitizer, since many test programs leak on purpose (an error
    report still fails them)."""
    if "ASAN_OPTIONS" not in os.environ and not sanitized():
        return None
    return dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")


def first_lines(data, n=REPORT_LINES):
    text = data.decode(errors="replace") if isinstance(data, bytes) else data
    return "\n".join(text.strip("\n").splitlines()[:n])


def first_error(text):
    """The first line of compiler output that says error (a linker's
    undefined reference before collect2's summary), else the first line."""
    lines = text.decode(errors="replace").splitlines()
    errors = [ln for ln in lines if "error" in ln or "undefined reference" in ln]
    errors = [ln for ln in errors if not ln.startswith("collect2:")] or errors
    return errors[0] if errors else lines[0] if lines else ""


def refusal_reason(stderr):
    """A ripper diagnostic's message with names and numbers normalized; an
    error without a hint (a `note:` line) is libclang's own."""
    lines = stderr.decode(errors="replace").splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"(.*?):(\d+:\d+:)? error: (.*)", line)
        if m:
            has_hint = i + 1 < len(lines) and " note: " in lines[i + 1]
            return ("" if has_hint else "libclang error: ") + normalize(m.group(3))
    return None


def normalize(message):
    message = re.sub(r"'[^']*'", "'X'", message)
    message = re.sub(r'"[^"]*"', '"X"', message)
    return re.sub(r"\b\d+\b", "N", message)


def same_text(a, b):
    """Equal but for white space (as tinycc's `diff -b` compares)."""
    return a.split() == b.split()


def signal_name(status):
    try:
        return signal.Signals(-status).name
    except ValueError:
        return "signal %d" % -status


def check_case(case, workdir):
    """(verdict, detail) for one test, built in its own folder of workdir:
    the detail's first line says why, more lines are output for the report."""
    if case.skip:
        return "skip", case.skip
    d = os.path.join(workdir, case.name.replace("/", "_"))
    os.makedirs(d, exist_ok=True)
    flags = OPT + ["-w"] + case.flags
    if "-finstrument-functions" in flags:
        return "skip", "-finstrument-functions: the instrumented functions are ripper's own"
    # ripped output is preprocessed C (.i): the compiler reads it as it is
    plain, ripped_c, ripped = (os.path.join(d, n) for n in ("plain", "ripped.i", "ripped"))
    r = run_limited(cc() + flags + [case.path, "-o", plain, "-lm"], BUILD_SECONDS)
    if r.status:
        return "skip", "plain build failed: " + first_error(r.stderr)
    want = run_limited([plain], RUN_SECONDS, cwd=d, env=program_env())
    if want.timed_out:
        return "skip", "plain build ran past %d s" % RUN_SECONDS
    if case.need_exit_zero and want.status:
        return "skip", "plain build fails the test (exit %d)" % want.status
    again = run_limited([plain], RUN_SECONDS, cwd=d, env=program_env())
    if (again.status, again.stdout) != (want.status, want.stdout):
        return "skip", "the plain build prints something else each run (addresses...)"
    if case.expected:
        with open(case.expected, errors="replace") as f:
            expected = f.read()
        out = want.stdout.decode(errors="replace")
        if not (same_text(out, expected) or
                same_text(out + want.stderr.decode(errors="replace"), expected)):
            return "skip", "plain build does not print the expected output"
    start = time.monotonic()
    r = run_limited([RIPPER, "--all-async", case.path, "-o", ripped_c, "--"] +
                    runtime_library("rip")[1] + flags, RIP_SECONDS)
    if r.timed_out:
        return "crash", "ripper ran past %d s" % RIP_SECONDS
    stderr = r.stderr.decode(errors="replace")
    if r.status == 1 and "Traceback" not in stderr and "internal error in ripper" not in stderr \
            and "libclang or ripper crashed" not in stderr:
        reason = refusal_reason(r.stderr)
        if reason:
            return "refused", reason + "\n" + first_lines(stderr)
    if r.status:
        return "crash", "ripper exit %s\n%s" % (
            signal_name(r.status) if r.status < 0 else r.status, first_lines(stderr, 30))
    rip_seconds = time.monotonic() - start
    library = runtime_library("rip")[0]
    r = run_limited(cc() + flags + [ripped_c, "-o", ripped, library, "-pthread", "-lm"],
                    BUILD_SECONDS)
    if r.status and re.search(rb"undefined reference to `link_error", r.stderr) and \
            not re.search(rb":\d+:\d+: error:", r.stderr):
        return "skip", ("it links only if gcc folds away calls it proves dead (link_error); "
                        "a ripped function yields on entry, and gcc no longer finds it pure")
    if r.status:
        return "no-compile", "%s\n%s" % (first_error(r.stderr), first_lines(r.stderr))
    limit = RUN_SECONDS * RIPPED_SLOWER
    got = run_limited([ripped], limit, cwd=d, env=program_env())
    if got.timed_out:
        return "wrong", "the ripped build ran past %d s" % limit
    if got.status < 0 and want.status >= 0:
        return "crash", "the ripped build was killed by %s (plain: exit %d)\n%s" % (
            signal_name(got.status), want.status, first_lines(got.stderr))
    if (got.status, got.stdout) != (want.status, want.stdout):
        return "wrong", "exit %d vs plain %d%s\nripped stdout:\n%s\nplain stdout:\n%s\n" \
            "ripped stderr:\n%s" % (got.status, want.status,
                                    "" if got.stdout == want.stdout else ", stdout differs",
                                    first_lines(got.stdout), first_lines(want.stdout),
                                    first_lines(got.stderr))
    return "match", "ripped in %.1f s" % rip_seconds


def select(cases, only=None, sample=None):
    """The cases whose name matches the glob `only` (a plain word: contains
    it), then `sample` of them: the same ones every time (by a hash of the
    name), spread over the whole suite."""
    if only:
        pattern = only if any(c in only for c in "*?[") else "*%s*" % only
        cases = [c for c in cases if fnmatch.fnmatchcase(c.name, pattern)]
    if sample is not None and sample < len(cases):
        chosen = sorted(cases, key=lambda c: hashlib.sha1(c.name.encode()).hexdigest())[:sample]
        keep = {c.name for c in chosen}
        cases = [c for c in cases if c.name in keep]
    return cases


def run(cases, jobs=2, keep=None, prefix="suite-diff-"):
    """{name: (verdict, detail)} for the cases, a line per case on stderr."""
    by_name = {c.name: c for c in cases}
    return run_seeds(lambda name, workdir: check_case(by_name[name], workdir),
                     list(by_name), jobs, keep, prefix, label="%s")


def reasons(results, verdict):
    """[(count, reason)] of the cases with `verdict`, most common first."""
    tally = {}
    for v, detail in results.values():
        if v == verdict:
            reason = detail.split("\n", 1)[0]
            tally[reason] = tally.get(reason, 0) + 1
    return sorted(((n, r) for r, n in tally.items()), key=lambda t: (-t[0], t[1]))


def summary(title, results, seconds=None, top=15):
    """The table of verdicts, refusals and skips by reason (the `top` most
    common of each; None: all)."""
    c = counts(results)
    lines = ["%s: %d tests%s" % (title, len(results),
                                 " in %d s" % seconds if seconds is not None else "")]
    for v in VERDICTS:
        lines.append("  %-10s %5d" % (v, c.get(v, 0)))
        if v in ("refused", "skip"):
            for n, reason in reasons(results, v)[:top]:
                lines.append("  %16d  %s" % (n, reason if top is None else reason[:150]))
    bad = sorted(name for name, (v, _) in results.items() if v in BAD)
    if bad:
        lines.append("wrong, no-compile or crash: " + " ".join(bad))
    return "\n".join(lines)


def write_report(path, title, results, seconds=None):
    """The summary, then each case that did not match with its output."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write(summary(title, results, seconds, top=None) + "\n")
        for verdict in BAD + ("refused", "skip"):
            names = sorted(n for n, (v, _) in results.items() if v == verdict)
            if names:
                f.write("\n== %s (%d)\n" % (verdict, len(names)))
            for name in names:
                detail = results[name][1]
                head, _, rest = detail.partition("\n")
                f.write("%s: %s\n" % (name, head))
                if rest and verdict in BAD:
                    f.write("".join("    %s\n" % ln for ln in rest.splitlines()))


def arguments(doc, folder=True):
    """The command line: [DIR] --jobs --only --sample --keep --report [--cflags]."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    if folder:
        ap.add_argument("folder", help="a folder of single-file C tests")
        ap.add_argument("--cflags", default="", help="cc flags for every test, e.g. -std=gnu99")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", help="only the tests whose name matches this glob (or contains it)")
    ap.add_argument("--sample", type=int, help="a fixed sample of N of the tests")
    ap.add_argument("--keep", help="keep the sources and builds in this folder")
    ap.add_argument("--report", help="write the details to this file")
    return ap.parse_args()


def expected_file(folder, name):
    for suffix in (".c.expected", ".expected", ".expect"):
        path = os.path.join(folder, name + suffix)
        if os.path.exists(path):
            return path
    return None


def folder_cases(folder, cflags=()):
    """A Case per *.c file in the folder, by name."""
    cases = []
    for fn in sorted(os.listdir(folder)):
        if fn.endswith(".c"):
            name = fn[:-2]
            cases.append(Case(name, os.path.join(folder, fn), list(cflags),
                              expected=expected_file(folder, name)))
    return cases


def run_and_report(title, cases, args, prefix):
    """Run, print the summary, write the report; exit status 1 if any is bad."""
    start = time.monotonic()
    results = run(cases, args.jobs, args.keep, prefix)
    seconds = time.monotonic() - start
    print(summary(title, results, seconds))
    if args.report:
        write_report(args.report, title, results, seconds)
        print("details: %s" % args.report)
    return 1 if any(v in BAD for v, _ in results.values()) else 0


def main():
    args = arguments(__doc__)
    folder = os.path.abspath(args.folder)
    cases = select(folder_cases(folder, shlex.split(args.cflags)), args.only, args.sample)
    if args.report is None:
        args.report = os.path.join(ROOT, "build", "suite-diff",
                                   os.path.basename(folder.rstrip("/")) + "-report.txt")
    return run_and_report("%s, ripped --all-async against plain %s" % (folder, " ".join(OPT)),
                          cases, args, "suite-diff-")


if __name__ == "__main__":
    sys.exit(main())
