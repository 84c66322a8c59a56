"""difftest.py -- what the differential fuzzers share: seed ranges, running
a check per seed on a pool of workers with a line per seed, the summary
counts, and running a built program with a time limit.

    results = run_seeds(check, seeds, jobs, keep, prefix)   # check(seed, workdir)
    r = run_limited(cmd, seconds)    # under `timeout`, its process group ended after
"""
import argparse
import collections
import concurrent.futures
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RIPCC = os.path.join(os.path.dirname(sys.executable), "ripcc")


def arguments(doc, more=None):
    """The command line every fuzzer takes: --seeds A-B, --jobs, --keep DIR
    (and what more(parser) adds)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--seeds", default="1-100", help="seed range, e.g. 1-100")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--keep", help="keep the programs and builds in this folder")
    if more:
        more(ap)
    args = ap.parse_args()
    args.seeds = parse_seeds(args.seeds)
    return args


def parse_seeds(text):
    """"1-100" (or "7") -> [1, ..., 100]."""
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


Ran = collections.namedtuple("Ran", "status stdout stderr timed_out")


def run_limited(cmd, seconds, cwd=None, env=None, stdin=None):
    """Ran(exit status (-N: killed by signal N), stdout, stderr, timed_out) of
    `cmd` run under coreutils `timeout` in a process group of its own, with
    the file at path `stdin` as standard input (none when None); whatever it
    left running in that group is killed when it ends, and all of it when it
    runs past `seconds`."""
    start = time.monotonic()
    with open(stdin or os.devnull, "rb") as source:
        p = subprocess.Popen(["timeout", "-k", "5", str(seconds)] + list(cmd), cwd=cwd, env=env,
                             stdin=source, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = p.communicate(timeout=seconds + 15)
    except subprocess.TimeoutExpired:   # `timeout` itself did not end it
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    timed_out = p.returncode in (124, 137, -9) and time.monotonic() - start >= seconds
    return Ran(p.returncode, out, err, timed_out)


def run_program(exe, timeout):
    """(exit status, stdout) of `exe`, or None if it ran past `timeout` s."""
    r = run_limited([exe], timeout)
    return None if r.timed_out else (r.status, r.stdout)


def run_seeds(check, seeds, jobs=2, keep=None, prefix="fuzz-", label="seed %s"):
    """{seed: (verdict, detail)}: check(seed, workdir) for every seed on
    `jobs` threads, each result said on stderr as it comes ("match" quietly),
    named by `label` % seed; of a detail only its first line is said.
    The work folder is `keep`, or a temporary one removed at the end."""
    workdir = keep or tempfile.mkdtemp(prefix=prefix)
    os.makedirs(workdir, exist_ok=True)
    try:
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            futures = {s: pool.submit(check, s, workdir) for s in seeds}
            results = {}
            for s in seeds:
                results[s] = futures[s].result()
                verdict, detail = results[s]
                said = detail.split("\n", 1)[0] if verdict != "match" else ""
                print("%s: %s %s" % (label % s, verdict, said), file=sys.stderr, flush=True)
            return results
    finally:
        if keep is None:
            shutil.rmtree(workdir, ignore_errors=True)


def counts(results):
    """{verdict: how many}."""
    out = {}
    for verdict, _ in results.values():
        out[verdict] = out.get(verdict, 0) + 1
    return out
