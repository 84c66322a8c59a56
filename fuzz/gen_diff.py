"""gen_diff.py -- hold the rip build against the ucontext build on random
async-heavy programs (fuzz/gen_async.py).

For each seed: generate the program, build it with `ripcc --backend=ucontext`
(compiled as written: it must build without a warning, or the generator is
wrong) and `ripcc --backend=rip` (the ripped text must build without a
warning too), run both, and compare stdout and exit status byte for byte:
the scheduling contract makes them equal.  The compiler comes from $CC;
under RIP_SAN=1 (make fuzz SAN=1) ripcc adds the sanitizer flags.

    python fuzz/gen_diff.py [--seeds 1-100] [--jobs 2] [--keep DIR] [--classes LIST] [--posix] [--split]

--classes picks gen_async's construct classes: all (the default), base (the
programs of the first generator, which make test holds ripper to), or a
comma list (`python fuzz/gen_async.py --list` describes them); isolate a
failing class with `--classes NAME`.

--posix: programs of plain POSIX calls (gen_async --posix: pipes, a
socketpair, pthreads, a mutex and a condition variable) built with
`cc -pthread` as their reference, and with `ripcc --posix` on ucontext
and on rip; both must print what the plain build prints.  --split (implies
--posix): the program in two files, its pipes, servers and round trips in
the second, which the first calls as plain externs: ucontext builds both
in one command, rip compiles each with -c and links them (where ripcc
rips the first file again, knowing which are async).

Verdicts: match; mismatch (outputs differ, or the rip build crashed or hung);
rip-error (ripper or the compiler refused the ripped program); rip-warning;
bad-program (the generator's fault: the plain build warned, failed, hung or
did not exit 0); cc-differs (a mismatch where the plain build at -O0 prints
what rip printed: the optimizer, or undefined behaviour the generator let
through, is to blame, not ripper).  Every verdict but match fails the run.
A seed reproduces with `python fuzz/gen_async.py SEED --classes LIST` (the
program's first line names its classes).
"""
import functools
import os
import subprocess
import sys

import gen_async
from difftest import RIPCC, arguments, counts, run_program, run_seeds

CFLAGS = ["-std=gnu11", "-O2", "-Wall", "-Wextra"]
RUN_SECONDS = 30


def build(src, backend, exe, extra=()):
    """(ok, compiler messages); `src` a file or a list of them."""
    srcs = [src] if isinstance(src, str) else list(src)
    r = subprocess.run([RIPCC, "--backend=" + backend] + CFLAGS + list(extra) + srcs + ["-o", exe],
                       capture_output=True)
    return r.returncode == 0, (r.stdout + r.stderr).decode(errors="replace")


def build_apart(srcs, backend, exe, extra=()):
    """build(), each file compiled with -c and the objects linked apart (the
    link rips again what calls another file's async functions plainly)."""
    objs, said = [], ""
    for src in srcs:
        obj = src[:-2] + "-" + backend + ".o"
        ok, msg = build(src, backend, obj, list(extra) + ["-c"])
        said += msg
        if not ok:
            return False, said
        objs.append(obj)
    ok, msg = build(objs, backend, exe, extra)
    return ok, said + msg


def check_seed(seed, workdir, classes=gen_async.ALL, posix=False, split=False):
    """(verdict, detail) for one seed."""
    src = os.path.join(workdir, "%s%d.c" % ("s" if split else "p" if posix else "g", seed))
    if split:
        texts = gen_async.generate_split(seed, classes)
        srcs = [src, src[:-2] + "_io.c"]
        for path, text in zip(srcs, texts):
            with open(path, "w") as f:
                f.write(text)
        return check_posix_source(srcs)
    with open(src, "w") as f:
        f.write(gen_async.generate(seed, classes, posix))
    return check_posix_source([src]) if posix else check_source(src)


def check_posix_source(srcs):
    """(verdict, detail) for the --posix program in files `srcs`: the plain
    `cc -pthread` build against ripcc --posix on ucontext (one command) and
    on rip (two files: compiled apart, then linked)."""
    plain = srcs[0][:-2] + "-plain"
    r = subprocess.run([os.environ.get("CC", "cc"), "-pthread"] + CFLAGS + srcs + ["-o", plain],
                       capture_output=True)
    msg = (r.stdout + r.stderr).decode(errors="replace")
    if r.returncode != 0 or "warning" in msg:
        return "bad-program", "the plain build: " + msg[-2000:]
    want = run_program(plain, RUN_SECONDS)
    if want is None or want[0] != 0:
        return "bad-program", "the plain build %s" % (
            "ran past %d s" % RUN_SECONDS if want is None else "exited %d" % want[0])
    for backend in ("ucontext", "rip"):
        exe = srcs[0][:-2] + "-" + backend
        apart = backend == "rip" and len(srcs) > 1
        ok, msg = (build_apart if apart else build)(srcs, backend, exe, ["--posix"])
        if not ok:
            return "rip-error", "%s: %s" % (backend, msg[-2000:])
        if "warning" in msg:
            return "rip-warning", "%s: %s" % (backend, msg[-2000:])
        got = run_program(exe, RUN_SECONDS * 4)
        if got is None:
            return "mismatch", "the %s build ran past %d s" % (backend, RUN_SECONDS * 4)
        if got != want:
            return "mismatch", "%s: exit %d vs %d; first differing line %d" % (
                backend, got[0], want[0], first_difference(got[1], want[1]))
    return "match", ""


def check_source(src):
    """(verdict, detail) for the program in file `src` (builds beside it)."""
    plain, ripped = src[:-2] + "-ucontext", src[:-2] + "-rip"
    ok, msg = build(src, "ucontext", plain)
    if not ok or "warning" in msg:
        return "bad-program", "the plain build: " + msg[-2000:]
    want = run_program(plain, RUN_SECONDS)
    if want is None or want[0] != 0:
        return "bad-program", "the plain build %s" % (
            "ran past %d s" % RUN_SECONDS if want is None else "exited %d" % want[0])
    ok, msg = build(src, "rip", ripped)
    if not ok:
        return "rip-error", msg[-2000:]
    if "warning" in msg:
        return "rip-warning", msg[-2000:]
    got = run_program(ripped, RUN_SECONDS * 4)
    if got is None:
        return "mismatch", "the rip build ran past %d s" % (RUN_SECONDS * 4)
    if got != want:
        detail = "exit %d vs %d; first differing line %d" % (
            got[0], want[0], first_difference(got[1], want[1]))
        # The plain build at -O0 is a third opinion: when it sides with rip,
        # the C compiler's optimizer (or undefined behaviour) is to blame.
        ok, _ = build(src, "ucontext", plain + "-O0", ["-O0"])
        if ok and run_program(plain + "-O0", RUN_SECONDS) == got:
            return "cc-differs", detail + "; the plain build at -O0 agrees with rip"
        return "mismatch", detail
    return "match", ""


def first_difference(a, b):
    """1-based number of the first line where a and b differ."""
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return i + 1
    return min(len(la), len(lb)) + 1


def run(seeds, jobs=2, keep=None, classes=gen_async.ALL, posix=False, split=False):
    """{seed: (verdict, detail)} for all seeds, programs with `classes`
    (of plain POSIX calls with `posix`; in two files with `split`)."""
    return run_seeds(functools.partial(check_seed, classes=classes, posix=posix, split=split),
                     seeds, jobs, keep, "gen-diff-")


def summary(results, posix=False):
    c = counts(results)
    return ("gen_async%s: %d of %d programs matched %s (%d mismatched, "
            "%d not ripped, %d ripped with warnings, %d bad programs, %d where only the "
            "plain build at -O2 differs)" % (
                " --posix" if posix else "", c.get("match", 0), len(results),
                "rip and ucontext (ripcc --posix) against cc -pthread" if posix
                else "rip against ucontext", c.get("mismatch", 0), c.get("rip-error", 0),
                c.get("rip-warning", 0), c.get("bad-program", 0), c.get("cc-differs", 0)))


def main():
    def more(ap):
        ap.add_argument("--classes", default="all", type=gen_async.parse_classes,
                        help="construct classes: all, base or a comma list (-NAME drops one)")
        ap.add_argument("--posix", action="store_true",
                        help="plain POSIX programs: cc -pthread against ripcc --posix")
        ap.add_argument("--split", action="store_true",
                        help="--posix, in two files: the round trips in the second")
    args = arguments(__doc__, more)
    args.posix = args.posix or args.split
    results = run(args.seeds, args.jobs, args.keep, args.classes, args.posix, args.split)
    print(summary(results, args.posix))
    return 0 if all(v == "match" for v, _ in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
