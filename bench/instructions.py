"""instructions.py -- `make bench-instructions`: instructions per operation
of the rip backend's hot paths, counted by callgrind (exact and immune to
a noisy machine, unlike the times of `make bench-runtime`).

    python bench/instructions.py BUILD_DIR

Each program runs at two sizes; the difference over the difference in
operations is the cost of one, with start-up and teardown cancelled out."""
import os
import re
import shutil
import subprocess
import sys

RIPCC = os.path.join(os.path.dirname(sys.executable), "ripcc")
HEAD = '#include <stdlib.h>\n#include "rip.h"\nstatic long n;\n'
MAIN = "int main(int argc, char **argv) { n = atol(argv[1]); return rip_run(start, NULL); }\n"
# name -> (what one operation is, operations per unit of n, program body)
PROGRAMS = {
    "yield": ("a switch of a yield pair", 2, """
static void yielder(void *arg) { (void)arg; for (long i = 0; i < n; i++) rip_yield(); }
static void start(void *arg) { (void)arg; rip_spawn(yielder, NULL); rip_spawn(yielder, NULL); }
"""),
    "channel": ("a switch of a rendezvous ping-pong", 2, """
static rip_chan *ping, *pong;
static void server(void *arg) { long t = 0; (void)arg;
    while (t < n) { rip_chan_recv(ping, &t); t++; rip_chan_send(pong, &t); } }
static void start(void *arg) { long t = 0; (void)arg;
    ping = rip_chan_new(sizeof(long), 0); pong = rip_chan_new(sizeof(long), 0);
    rip_spawn(server, NULL);
    while (t < n) { rip_chan_send(ping, &t); rip_chan_recv(pong, &t); } }
"""),
    "call": ("an async call that returns without suspending, with its loop", 1, """
static volatile int never;
RIP_ASYNC static long add(long a, long b) { if (never) rip_yield(); return a + b; }
static long sum;
static void start(void *arg) { (void)arg; for (long i = 0; i < n; i++) sum = add(sum, i); }
"""),
    "unwind": ("a yield three async calls deep and the return through them", 1, """
RIP_ASYNC static long f3(long x) { rip_yield(); return x + 1; }
RIP_ASYNC static long f2(long x) { return f3(x) + 1; }
RIP_ASYNC static long f1(long x) { return f2(x) + 1; }
static long sum;
static void start(void *arg) { (void)arg; for (long i = 0; i < n; i++) sum += f1(i); }
"""),
    "spawn": ("a spawn, run and end of a task that returns at once", 1, """
static void task(void *arg) { (void)arg; }
static void start(void *arg) { (void)arg; for (long i = 0; i < n; i++) rip_spawn(task, NULL); }
"""),
}
SIZES = (10000, 20000)


def instructions(exe, size):
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                        exe, str(size)], capture_output=True, text=True, timeout=600)
    m = re.search(r"Collected : (\d+)", r.stderr)
    if r.returncode != 0 or not m:
        raise SystemExit("%s %d failed:\n%s" % (exe, size, r.stderr[-2000:]))
    return int(m.group(1))


def main(build_dir):
    if shutil.which("valgrind") is None:
        raise SystemExit("bench-instructions needs valgrind (apt-get install valgrind)")
    os.makedirs(build_dir, exist_ok=True)
    print("| operation | instructions |\n|---|---:|")
    for name, (what, per, body) in PROGRAMS.items():
        src = os.path.join(build_dir, "insn-%s.c" % name)
        exe = src[:-2]
        with open(src, "w") as f:
            f.write(HEAD + body + MAIN)
        subprocess.run([RIPCC, "-O2", src, "-o", exe], check=True)
        a, b = (instructions(exe, size) for size in SIZES)
        print("| %s: %s | %.0f |" % (name, what, (b - a) / ((SIZES[1] - SIZES[0]) * per)))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build")
