"""rip_dump_tasks, RIP_DUMP_SIGNAL, the deadlock report and rip_stats: what
every task waits on, and on rip its call chain from the frames, read with
the line table ripper emits for each async function (issue 24)."""
import os
import re
import select
import signal
import subprocess
import time

import pytest

from conftest import BACKENDS, RIPCC, RIPPER, ROOT, run

# Tasks blocked on each kind of wait, one runnable, and the dump from the
# running one.  Lines marked /* L_x */ are the ones the chain names.
PROGRAM = r"""#include <stdio.h>
#include <unistd.h>
#include "rip.h"

static rip_chan *never, *full;
static rip_wg *wg;
static int pipefd[2];
static volatile int stop;

RIP_ASYNC static void reader(void) {
    char b;
    rip_read(pipefd[0], &b, 1); /* L_read */
}
RIP_ASYNC static void waiter(int kind) {
    int x = 0;
    long y = 0;
    if (kind == 0)
        reader(); /* L_reader */
    else if (kind == 1)
        rip_chan_recv(never, &x); /* L_recv */
    else if (kind == 2)
        rip_chan_send(full, &y); /* L_send */
    else if (kind == 3)
        rip_wg_wait(wg); /* L_wg */
    else
        rip_sleep_ms(60000); /* L_sleep */
}
static void task(void *arg) {
    waiter((int)(long)arg); /* L_waiter */
}
static void spinner(void *arg) {
    (void)arg;
    while (!stop)
        rip_yield(); /* L_yield */
}
static void main_task(void *arg) {
    struct rip_stats st;
    int64_t t0 = rip_now_ms();
    (void)arg;
    if (pipe(pipefd))
        return;
    never = rip_chan_new(sizeof(int), 0);
    full = rip_chan_new(sizeof(long), 0);
    wg = rip_wg_new();
    rip_wg_add(wg, 1);
    printf("never=%p full=%p wg=%p fd=%d\n", (void *)never, (void *)full, (void *)wg, pipefd[0]);
    for (long k = 0; k < 5; k++)
        rip_spawn(task, (void *)k);
    rip_spawn(spinner, NULL);
    do {
        rip_yield();
        rip_stats(&st);
    } while ((st.waiting < 5 || st.tasks < 7) && rip_now_ms() < t0 + 10000); /* threads: a thread lists itself once it starts */
    rip_dump_tasks(stdout);
    printf("stats: worker %d tasks %ld running %ld runnable %ld waiting %ld fd_waits %ld timers %ld\n",
           st.worker, st.tasks, st.running, st.runnable, st.waiting, st.fd_waits, st.timers);
    printf("pool: %d\n", st.frame_bytes > 0 && st.pooled_bytes > 0);
    stop = 1;
    rip_write(pipefd[1], "x", 1);
    rip_chan_close(never);
    rip_chan_close(full);
    rip_wg_done(wg);
}
int main(void) { return rip_run(main_task, NULL) == 0 ? 0 : 1; }
"""
SLEEP_CUT = "rip_sleep_ms(60000)"      # the sleeper must end for the program to: 60 s -> 1.5 s


def lines_within(stream, n, seconds=20):
    """Up to n lines of a pipe, as they come within `seconds` (a dump that
    never comes fails the test instead of hanging it)."""
    fd, buf, end = stream.fileno(), b"", time.monotonic() + seconds
    while buf.count(b"\n") < n and time.monotonic() < end:
        if not select.select([fd], [], [], max(0, end - time.monotonic()))[0]:
            break
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        buf += chunk
    return buf.decode().splitlines(True)[:n]


def line_of(source, mark):
    return next(i + 1 for i, text in enumerate(source.splitlines()) if "/* %s */" % mark in text)


@pytest.fixture(scope="module")
def dump_source(tmp_path_factory):
    path = tmp_path_factory.mktemp("dump") / "dump.c"
    path.write_text(PROGRAM.replace(SLEEP_CUT, "rip_sleep_ms(1500)"))
    return str(path)


def dumped(exe):
    """(the addresses the program printed, the dump's lines with every
    other address as ADDR and the sleep's time left as N)."""
    r = run([exe], timeout=60)
    assert r.returncode == 0, r.stderr.decode()
    out = r.stdout.decode().splitlines()
    names = dict(item.split("=") for item in out[0].split())
    lines = []
    for text in out[1:]:
        for name, value in names.items():
            if name != "fd":
                text = text.replace(value, name.upper())
        text = re.sub(r"0x[0-9a-f]+", "ADDR", text)
        text = re.sub(r"due in (\d+) ms", lambda m: "due in N ms" if 0 < int(m.group(1)) <= 1500
                      else m.group(0), text)
        text = re.sub(r", waited (\d+) ms", lambda m: ", waited W ms" if int(m.group(1)) < 1500
                      else m.group(0), text)
        text = re.sub(r"frames \d+ bytes, pooled \d+ bytes", "frames F", text)
        lines.append(text)
    return names, lines


def entries(lines):
    """The dump's task entries: each a task line with its chain lines."""
    out = []
    for text in lines:
        if text.startswith("task "):
            out.append([text])
        elif text.startswith("    ") and out:
            out[-1].append(text)
    return out


def expected(source, path, backend):
    """The entries of the dump of PROGRAM on `backend`, in the order the
    rip and ucontext backends list them."""
    at = lambda fn, mark: "    %s (%s:%d)" % (fn, path, line_of(source, mark))
    core = backend != "threads"
    chan = ((lambda size: " (elem %d bytes, capacity 0, 0 buffered, %%s)" % size) if core
            else (lambda size: " (elem %d bytes, capacity 0)" % size))
    entries = [
        ["task ADDR: running", "    main_task (%s, running)" % path],
        ["task ADDR: runnable", at("spinner", "L_yield")],
        ["task ADDR: waiting on fd FD for read", at("reader", "L_read"), at("waiter", "L_reader"),
         at("task", "L_waiter")],
        ["task ADDR: waiting on channel FULL to send" +
         (chan(8) % "1 senders, 0 receivers waiting" if core else chan(8)),
         at("waiter", "L_send"), at("task", "L_waiter")],
        ["task ADDR: waiting on channel NEVER to receive" +
         (chan(4) % "0 senders, 1 receivers waiting" if core else chan(4)),
         at("waiter", "L_recv"), at("task", "L_waiter")],
        ["task ADDR: waiting on wait group WG" + (" (count 1)" if core else ""),
         at("waiter", "L_wg"), at("task", "L_waiter")],
        ["task ADDR: waiting on sleep, due in N ms", at("waiter", "L_sleep"), at("task", "L_waiter")],
    ]
    for e in entries:
        if e[0].startswith("task ADDR: waiting"):
            e[0] += ", waited W ms"
    if backend != "rip":
        entries = [[e[0], "    (call chain not available on this backend)"] for e in entries]
    return entries


@pytest.mark.parametrize("backend", BACKENDS)
def test_dump_lists_every_task_with_what_it_waits_on(ripcc, dump_source, backend):
    """Line by line: the running task, the runnable one, and one task on
    each kind of wait, with the channel, wait group and fd the program
    made; on rip each with its chain of user functions and source lines
    (rip's and ucontext's order: running, run queue, fds, channels newest
    first, wait groups, timers; threads lists in start order)."""
    exe = ripcc(dump_source, backend)
    names, lines = dumped(exe)
    source = open(dump_source).read()
    want = expected(source, dump_source, backend)
    for e in want:
        e[0] = e[0].replace("FD", names["fd"])
    got = entries(lines)
    if backend == "threads":
        got, want = sorted(got), sorted(want)
    assert got == want
    assert lines[0] == "rip: tasks of worker 0: 7 live"


@pytest.mark.parametrize("backend", BACKENDS)
def test_dump_heads_with_the_stats(ripcc, dump_source, backend):
    exe = ripcc(dump_source, backend)
    _, lines = dumped(exe)
    assert lines[1] == ("rip: stats: tasks 7 (running 1, runnable 1, waiting 5), run queue 1, "
                        "fd waits 1, timers 1, offload queued 0, offload threads busy 0 of 0, "
                        "frames F")


@pytest.mark.parametrize("backend", BACKENDS)
def test_rip_stats_counts_tasks_by_state(ripcc, dump_source, backend):
    exe = ripcc(dump_source, backend)
    _, lines = dumped(exe)
    assert ("stats: worker 0 tasks 7 running 1 runnable 1 waiting 5 fd_waits 1 timers 1"
            in lines)
    assert ("pool: %d" % (backend == "rip")) in lines     # frames in use and pooled: rip's


def test_ripped_output_carries_each_functions_line_table(tmp_path):
    """ripper emits, per async function, its name, file and the line of
    each resume point (state 0: the definition), found by the resume
    entry; nothing in the frame or on the hot path."""
    src = tmp_path / "t.c"
    src.write_text('#include "rip.h"\n'
                   'RIP_ASYNC int f(int fd) {\n'
                   '    char b;\n'
                   '    rip_yield();\n'
                   '    return (int)rip_read(fd, &b, 1);\n'
                   '}\n')
    r = run([RIPPER, "-I", os.path.join(ROOT, "runtime", "include"), str(src)])
    assert r.returncode == 0, r.stderr.decode()
    out = r.stdout.decode()
    assert "static const int rip__lines_f[] = {2, 4, 5};" in out
    assert ('rip__info_f __attribute__((__used__, __aligned__(8), __section__("rip__fninfo"))) '
            '= {rip__resume_f, "f", "%s", rip__lines_f, 3};' % src) in out


SIGNALLED = r"""#include <stdio.h>
#include "rip.h"

static rip_chan *c;

static void receiver(void *arg) {
    int x;
    (void)arg;
    rip_chan_recv(c, &x);
}
static void main_task(void *arg) {
    char line[8];
    (void)arg;
    c = rip_chan_new(sizeof(int), 0);
    rip_spawn(receiver, NULL);
    printf("ready\n");
    fflush(stdout);
    rip_read(0, line, 1);    /* until the test has seen the dump */
    rip_chan_close(c);
    printf("done\n");
}
int main(void) { return rip_run(main_task, NULL) == 0 ? 0 : 1; }
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_dump_signal_prints_the_dump_and_the_program_goes_on(tmp_path, ripcc, backend):
    """RIP_DUMP_SIGNAL=SIGQUIT: the signal prints the dump on stderr (from
    the loop, not the handler) and the program runs on to exit 0."""
    src = tmp_path / "signalled.c"
    src.write_text(SIGNALLED)
    exe = ripcc(str(src), backend)
    env = dict(os.environ, RIP_DUMP_SIGNAL="SIGQUIT")
    p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env)
    try:
        assert p.stdout.readline() == b"ready\n"
        p.send_signal(signal.SIGQUIT)
        dump = lines_within(p.stderr, 6)  # heading, stats, 2 tasks of 2 lines
        out, err = p.communicate(b"x", timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 0
    assert out == b"done\n"
    assert dump[0] == "rip: tasks of worker 0, on RIP_DUMP_SIGNAL: 2 live\n"
    assert dump[1].startswith("rip: stats: tasks 2 (running 0, runnable 0, waiting 2)")
    tasks = [re.sub(r", waited \d+ ms", "", line) for line in dump if line.startswith("task ")]
    assert sorted(re.sub(r"0x[0-9a-f]+", "ADDR", re.sub(r" \(.*", "", t)) for t in tasks) == [
        "task ADDR: waiting on channel ADDR to receive\n", "task ADDR: waiting on fd 0 for read\n"]


def test_dump_signal_takes_a_number(tmp_path, ripcc):
    src = tmp_path / "signalled.c"
    src.write_text(SIGNALLED)
    exe = ripcc(str(src), "rip")
    env = dict(os.environ, RIP_DUMP_SIGNAL=str(int(signal.SIGUSR1)))
    p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env)
    try:
        assert p.stdout.readline() == b"ready\n"
        p.send_signal(signal.SIGUSR1)
        assert lines_within(p.stderr, 1)[0].startswith("rip: tasks of worker 0, on RIP_DUMP_SIGNAL")
        p.communicate(b"x", timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 0


DEADLOCK = r"""#include "rip.h"

static rip_chan *c;

RIP_ASYNC static void stuck(void) {
    int x;
    rip_chan_recv(c, &x); /* L_stuck */
}
static void task(void *arg) {
    (void)arg;
    stuck(); /* L_task */
}
static void main_task(void *arg) {
    (void)arg;
    c = rip_chan_new(sizeof(int), 0);
    rip_spawn(task, NULL);
    rip_spawn(task, NULL);
}
int main(void) { return rip_run(main_task, NULL) == -1 ? 0 : 1; }
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_deadlock_report_lists_the_blocked_tasks(tmp_path, ripcc, backend):
    src = tmp_path / "deadlock.c"
    src.write_text(DEADLOCK)
    exe = ripcc(str(src), backend)
    r = run([exe], timeout=60)
    assert r.returncode == 0
    lines = [re.sub(r"0x[0-9a-f]+", "ADDR", re.sub(r", waited \d+ ms", "", line))
             for line in r.stderr.decode().splitlines()]
    assert lines[:2] == ["rip: deadlock: 2 tasks blocked forever",
                         "rip: tasks of worker 0, blocked forever: 2 live"]
    core = backend != "threads"
    task = "task ADDR: waiting on channel ADDR to receive (elem 4 bytes, capacity 0%s)" % (
        ", 0 buffered, 0 senders, 2 receivers waiting" if core else "")
    if backend == "rip":
        chain = ["    stuck (%s:%d)" % (src, line_of(DEADLOCK, "L_stuck")),
                 "    task (%s:%d)" % (src, line_of(DEADLOCK, "L_task"))]
    else:
        chain = ["    (call chain not available on this backend)"]
    assert lines[3:] == ([task] + chain) * 2


@pytest.mark.parametrize("backend", ("rip", "ucontext"))
def test_deadlock_report_names_each_mutex_its_holder_and_the_condition_variable(ripcc, backend):
    """Two tasks that each hold the mutex the other locks: each entry names
    the mutex it waits on and the task holding it, which is the other
    entry's task; the task on a condition variable nobody signals names it."""
    exe = ripcc(os.path.join(ROOT, "tests", "programs", "mutex_deadlock_reported.c"), backend)
    r = run([exe], timeout=20)
    assert r.returncode == 3
    waits = re.findall(r"^task (0x[0-9a-f]+): waiting on mutex (0x[0-9a-f]+) \(held by task "
                       r"(0x[0-9a-f]+)\), waited \d+ ms$", r.stderr.decode(), re.M)
    assert len(waits) == 3
    holders = {task: holder for task, _, holder in waits}
    crossed = [task for task, holder in holders.items() if holders.get(holder) == task]
    assert len(crossed) == 2
    assert len(re.findall(r"^task 0x[0-9a-f]+: waiting on condition variable 0x[0-9a-f]+, "
                          r"waited \d+ ms$",
                          r.stderr.decode(), re.M)) == 1


def test_readme_dump_is_what_the_readme_program_prints(tmp_path):
    """README's stuck.c, built as README says (`ripcc stuck.c -o stuck`),
    prints README's dump (addresses and the pool's bytes aside)."""
    from conftest import RIPCC
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    source = next(block for block in re.findall(r"```c\n(.*?)```", readme, re.S)
                  if block.startswith("/* stuck.c"))
    shown = re.search(r"`ripcc stuck.c -o stuck && ./stuck` deadlocks.*?```\n(.*?)```",
                      readme, re.S).group(1)
    (tmp_path / "stuck.c").write_text(source)
    assert run([RIPCC, "stuck.c", "-o", "stuck"], cwd=str(tmp_path)).returncode == 0
    r = run([str(tmp_path / "stuck")], timeout=20)
    assert r.returncode == 1

    def same(text):
        text = re.sub(r"0x[0-9a-f]+", "ADDR", text)
        text = re.sub(r"waited \d+ ms", "waited N ms", text)
        return re.sub(r"frames \d+ bytes, pooled \d+ bytes", "frames F", text).splitlines()
    assert same(r.stderr.decode()) == same(shown)


LIMITS = r"""#include <stdio.h>
#include <unistd.h>
#include "rip.h"

static rip_chan *c;
static void *slow(void *arg) { (void)arg; usleep(300000); return NULL; }
static void limited(void *arg) {
    int x;
    (void)arg;
    rip_set_deadline(rip_now_ms() + 5000);
    rip_chan_recv(c, &x);
}
static void selector(void *arg) {
    int x;
    rip_chan_case k[1] = {{ NULL, 0, NULL, 0 }};
    (void)arg;
    k[0].chan = c;
    k[0].elem = &x;
    rip_chan_select(k, 1, 4000);
}
static void offloader(void *arg) { (void)arg; rip_offload(slow, NULL); }
static void main_task(void *arg) {
    (void)arg;
    c = rip_chan_new(sizeof(int), 1);
    rip_spawn(limited, NULL);
    rip_spawn(selector, NULL);
    rip_spawn(offloader, NULL);
    rip_yield();
    rip_dump_tasks(stdout);
    rip_chan_close(c);
}
int main(void) { return rip_run(main_task, NULL); }
"""


@pytest.mark.parametrize("backend", ("rip", "ucontext"))
def test_dump_shows_a_deadline_a_select_and_an_offload(tmp_path, ripcc, backend):
    """A wait under rip_set_deadline says when the deadline comes, a
    select's case says so with its timeout, and a task in rip_offload
    waits on the offload."""
    src = tmp_path / "limits.c"
    src.write_text(LIMITS)
    r = run([ripcc(str(src), backend)], timeout=30)
    assert r.returncode == 0, r.stderr.decode()
    tasks = [re.sub(r"0x[0-9a-f]+", "ADDR", re.sub(r" \(elem [^)]*\)", "", line))
             for line in r.stdout.decode().splitlines() if line.startswith("task ")]
    assert len(tasks) == 4
    assert all(re.search(r", waited \d+ ms$", t) for t in tasks[1:]), tasks
    tasks = [re.sub(r", waited \d+ ms$", "", t) for t in tasks]
    assert re.fullmatch(r"task ADDR: waiting on channel ADDR to receive; deadline in "
                        r"(4\d\d\d|5000) ms", tasks[1]), tasks
    assert re.fullmatch(r"task ADDR: waiting on channel ADDR to receive in a select; timeout in "
                        r"(3\d\d\d|4000) ms", tasks[2]), tasks
    assert tasks[3] == "task ADDR: waiting on offload"


WIDE = r"""#include <stdio.h>
#include "rip.h"

enum { N = 64 };
static rip_chan *c[N];
RIP_ASYNC static void wide(void) {
    int x;
    rip_chan_case k[N];
    for (int i = 0; i < N; i++) {
        k[i].chan = c[i];
        k[i].send = 0;
        k[i].elem = &x;
    }
    rip_chan_select(k, N, 4000); /* L_select */
}
static void selector(void *arg) { (void)arg; wide(); }
static void main_task(void *arg) {
    (void)arg;
    for (int i = 0; i < N; i++)
        c[i] = rip_chan_new(sizeof(int), 0);
    rip_spawn(selector, NULL);
    rip_yield();
    rip_dump_tasks(stdout);
    for (int i = 0; i < N; i++)
        rip_chan_close(c[i]);
}
int main(void) { return rip_run(main_task, NULL); }
"""


@pytest.mark.parametrize("backend", ("rip", "ucontext"))
def test_a_task_line_too_long_is_cut_and_the_next_line_stays_whole(tmp_path, ripcc, backend):
    """A select over 64 channels makes a task line of some 9,000 bytes:
    it is cut at 4 KiB and ends in "...", and its chain follows on a line
    of its own."""
    src = tmp_path / "wide.c"
    src.write_text(WIDE)
    r = run([ripcc(str(src), backend)], timeout=30)
    assert r.returncode == 0, r.stderr.decode()
    lines = r.stdout.decode().splitlines()
    at = [i for i, line in enumerate(lines) if line.startswith("task ") and "select" in line]
    assert len(at) == 1, lines
    task = lines[at[0]]
    assert 4000 < len(task) < 4096 and task.endswith("..."), len(task)
    assert task.count("to receive in a select") > 20
    chain = {"rip": "    wide (%s:%d)" % (src, line_of(WIDE, "L_select")),
             "ucontext": "    (call chain not available on this backend)"}[backend]
    assert lines[at[0] + 1] == chain


WAITED = r"""#include <stdio.h>
#include "rip.h"

static rip_chan *c;
static void twice(void *arg) {      /* waits, is woken at 300 ms, waits again */
    int x;
    (void)arg;
    rip_chan_recv(c, &x);
    rip_chan_recv(c, &x);
}
static void sleeper(void *arg) { (void)arg; rip_sleep_ms(5000); }
static void main_task(void *arg) {
    int one = 1;
    (void)arg;
    c = rip_chan_new(sizeof(int), 0);
    rip_spawn(twice, NULL);
    rip_spawn(sleeper, NULL);
    rip_sleep_ms(300);
    rip_chan_send(c, &one);
    rip_sleep_ms(400);
    rip_dump_tasks(stdout);
    rip_chan_close(c);
}
int main(void) { return rip_run(main_task, NULL); }
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_dump_says_how_long_each_task_has_waited(tmp_path, ripcc, backend):
    """A waiting task's entry ends in how long it has waited, since its
    latest wait began: 700 ms for the sleeper, 400 ms (not 700) for the
    task woken at 300 ms that waits again; the running task has none."""
    src = tmp_path / "waited.c"
    src.write_text(WAITED)
    r = run([ripcc(str(src), backend)], timeout=30)
    assert r.returncode == 0, r.stderr.decode()
    tasks = [line for line in r.stdout.decode().splitlines() if line.startswith("task ")]
    assert len(tasks) == 3, tasks
    assert not re.search(r"waited", tasks[0])
    waited = {("receive" if "receive" in t else "sleep"): int(re.search(r", waited (\d+) ms$",
                                                                       t).group(1))
              for t in tasks[1:]}
    assert 690 <= waited["sleep"] < 1500, tasks
    assert 380 <= waited["receive"] < 680, tasks


POSIX = r"""#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include "rip.h"

static int p[2];
static void *reader(void *arg) {
    char b;
    (void)arg;
    return (void *)(long)read(p[0], &b, 1); /* L_read */
}
int main(void) {
    pthread_t t;
    if (pipe(p) || pthread_create(&t, NULL, reader, NULL))
        return 1;
    while (1) {             /* until the reader waits */
        struct rip_stats st;
        rip_stats(&st);
        if (st.fd_waits)
            break;
        usleep(1000);
    }
    rip_dump_tasks(stdout);
    if (write(p[1], "x", 1) != 1)
        return 1;
    return pthread_join(t, NULL);
}
"""


def test_posix_mode_chain_shows_the_users_functions_not_the_runtimes(tmp_path, ripcc):
    """Under --posix the frames of the runtime's calls (read's, a thread's
    start, the first task running main) have tables that say they are
    the runtime's: the chain lists the user's functions only."""
    src = tmp_path / "posix.c"
    src.write_text(POSIX)
    r = run([ripcc(str(src), "rip", extra=["--posix"])], timeout=30)
    assert r.returncode == 0, r.stderr.decode()
    lines = [re.sub(r"0x[0-9a-f]+", "ADDR", re.sub(r", waited \d+ ms$", ", waited N ms", line))
             for line in r.stdout.decode().splitlines()]
    assert lines[2:] == ["task ADDR: running", "    main (%s, running)" % src,
                         "task ADDR: waiting on fd %s for read, waited N ms" % re.search(
                             r"fd (\d+)", lines[4]).group(1),
                         "    reader (%s:%d)" % (src, line_of(POSIX, "L_read"))]


MANY = r"""#include <stdio.h>
#include "rip.h"

static rip_chan *c;
static void waiter(void *arg) { int x; (void)arg; rip_chan_recv(c, &x); }
static void main_task(void *arg) {
    FILE *out = fopen("/dev/null", "w");
    (void)arg;
    c = rip_chan_new(sizeof(int), 0);
    for (int i = 0; i < 200000; i++)
        rip_spawn(waiter, NULL);
    rip_yield();
    int64_t t0 = rip_now_ms();
    rip_dump_tasks(out);
    printf("%lld\n", (long long)(rip_now_ms() - t0));
    fclose(out);
    rip_chan_close(c);
}
int main(void) { return rip_run(main_task, NULL); }
"""


def test_dump_of_many_tasks_on_one_channel_takes_linear_time(tmp_path, ripcc):
    """200,000 tasks on one channel: each entry's queue lengths are counted
    once per channel, not once per task (that was 10^6 tasks never done);
    about 0.2 s here, the bound generous for a loaded machine."""
    src = tmp_path / "many.c"
    src.write_text(MANY)
    r = run([ripcc(str(src), "rip")], timeout=20)
    assert r.returncode == 0, r.stderr.decode()
    assert int(r.stdout) < 3000


WORKERS = r"""#include <stdio.h>
#include "rip.h"

static void main_task(void *arg) {
    char b;
    (void)arg;
    if (rip_worker_id() == 0) {
        printf("ready\n");
        fflush(stdout);
        rip_read(0, &b, 1);
    } else {
        rip_sleep_ms(2500);
    }
}
int main(void) { return rip_run_workers(2, main_task, NULL) == 0 ? 0 : 1; }
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_dump_signal_dumps_every_worker_at_once(tmp_path, ripcc, backend):
    """Under rip_run_workers each worker dumps its own tasks, at once: the
    one whose loop sleeps until a timer (the signal went to another
    thread) is woken by the dump's eventfd, not left to its timer."""
    src = tmp_path / "workers.c"
    src.write_text(WORKERS)
    exe = ripcc(str(src), backend)
    p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=dict(os.environ, RIP_DUMP_SIGNAL="QUIT"))
    try:
        assert p.stdout.readline() == b"ready\n"
        time.sleep(0.2)             # worker 1 asleep on its timer
        p.send_signal(signal.SIGQUIT)
        dump = lines_within(p.stderr, 8, seconds=1.5)   # 2 workers: heading, stats, 1 task of 2 lines
        p.communicate(b"x", timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 0
    assert sorted(line for line in dump if line.startswith("rip: tasks")) == [
        "rip: tasks of worker 0, on RIP_DUMP_SIGNAL: 1 live\n",
        "rip: tasks of worker 1, on RIP_DUMP_SIGNAL: 1 live\n"]
    assert len([line for line in dump if re.match(r"task 0x[0-9a-f]+: waiting on sleep, due in "
                                                   r"\d+ ms", line)]) == 1


def test_an_unused_static_async_function_is_dropped_as_cc_drops_it(tmp_path):
    """Its dump table is inside its resume function: at -O1 and up gcc drops
    the function, the table and what it names, as it drops the plain one
    (mini_httpd's unused send_via_sendfile named an undefined my_sendfile,
    and the table, `used` at file scope, kept it: the link failed)."""
    src = tmp_path / "unused.c"
    src.write_text('#include <stdio.h>\n#include "rip.h"\nint nowhere(int);\n'
                   'static int unused(int x) { rip_yield(); return nowhere(x); }\n'
                   'static void task(void *a) { (void)a; rip_yield(); puts("ok"); }\n'
                   'int main(void) { return rip_run(task, 0); }\n')
    exe = tmp_path / "unused"
    r = run([RIPCC, "-O2", "-Wno-unused-function", str(src), "-o", str(exe)])
    assert r.returncode == 0, r.stderr.decode()
    assert run([str(exe)]).stdout == b"ok\n"
