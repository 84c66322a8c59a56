"""pthreads under POSIX mode (ripcc --posix, issue 22 point 1): a thread
is a task.  tests/posix/pthread_*.c compare each call's results with the
plain build (test_posix.py); these check what a comparison cannot show:
a thread that waits suspends only itself, a mutex held across a wait
excludes the others, threads are cheap on rip, ripper's errors, and the
runtime's answers where glibc's would hang."""
import os
import time

import pytest

from conftest import run
from test_posix import plain_build, ripper_posix  # noqa: F401 (a fixture)

BOTH = ("rip", "ucontext")

READ_WHILE_OTHERS_RUN = r"""
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int p[2];
static pid_t main_tid, other_tids;  /* threads are tasks: all on main's OS thread */
#ifdef HOLD
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
#endif

static void *reader(void *arg) {
    char buf[8];
    (void)arg;
    other_tids |= gettid() != main_tid;
#ifdef HOLD
    pthread_mutex_lock(&mu);        /* held across the read */
#endif
    ssize_t n = read(p[0], buf, sizeof buf);
    printf("read %zd\n", n);
#ifdef HOLD
    pthread_mutex_unlock(&mu);
#endif
    return NULL;
}

static void *ticker(void *arg) {
    (void)arg;
    other_tids |= gettid() != main_tid;
    for (int i = 0; i < 3; i++) {
#ifdef HOLD
        printf("trylock %s\n", pthread_mutex_trylock(&mu) ? "busy" : "got it");
#else
        printf("tick %d\n", i);
#endif
        usleep(10000);
    }
#ifdef HOLD
    pthread_mutex_lock(&mu);        /* waits for the reader's unlock */
    printf("locked after the reader\n");
    pthread_mutex_unlock(&mu);
#endif
    return NULL;
}

int main(void) {
    pthread_t r, t;
    main_tid = gettid();
    pipe(p);
    fflush(stdout);
    if (fork() == 0) {
        usleep(200000);
        _exit(write(p[1], "late", 4) != 4);
    }
    pthread_create(&r, NULL, reader, NULL);
    usleep(1000);                   /* the reader is in read() */
    pthread_create(&t, NULL, ticker, NULL);
    pthread_join(t, NULL);
    pthread_join(r, NULL);
    printf("on main's OS thread: %d\n", !other_tids);
    return 0;                       /* the child has written: it ends on its own */
}
"""


@pytest.mark.parametrize("backend", BOTH)
def test_a_thread_blocked_in_read_does_not_stop_the_others(tmp_path, ripcc, backend):
    """The reader waits 200 ms in read() on a pipe; the other thread ticks
    meanwhile (a read that blocked the scheduler would print them after)."""
    src = tmp_path / "reads.c"
    src.write_text(READ_WHILE_OTHERS_RUN)
    r = run([ripcc(str(src), backend, extra=["--posix"])], timeout=20)
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.decode() == "tick 0\ntick 1\ntick 2\nread 4\non main's OS thread: 1\n"


@pytest.mark.parametrize("backend", BOTH)
def test_a_mutex_held_across_a_read_excludes_the_others(tmp_path, ripcc, backend):
    """The reader holds the mutex while it waits in read(): the other
    thread runs (its trylocks answer busy) but gets the mutex only after."""
    src = tmp_path / "holds.c"
    src.write_text(READ_WHILE_OTHERS_RUN)
    r = run([ripcc(str(src), backend, extra=["--posix", "-DHOLD"])], timeout=20)
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.decode() == "trylock busy\n" * 3 + \
        "read 4\nlocked after the reader\non main's OS thread: 1\n"


MANY = r"""
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pid_t main_tid;

/* arg + 1 on main's OS thread (a task), 0 on a thread of its own */
static void *one(void *arg) { return (void *)(gettid() == main_tid ? (long)arg + 1 : 0); }

int main(int argc, char **argv) {
    main_tid = gettid();
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    pthread_t *t = malloc(sizeof *t * (size_t)n);
    long sum = 0;
    for (long i = 0; i < n; i++)
        if (pthread_create(&t[i], NULL, one, (void *)i) != 0)
            return 1;
    for (int i = 0; i < n; i++) {
        void *v;
        if (pthread_join(t[i], &v) != 0)
            return 2;
        sum += (long)v;
    }
    printf("%ld\n", sum);
    free(t);
    return 0;
}
"""


def test_ten_thousand_threads_are_created_and_joined_quickly_on_rip(tmp_path, ripcc):
    """10,000 threads live at once: tasks on main's OS thread, a frame each."""
    src = tmp_path / "many.c"
    src.write_text(MANY)
    exe = ripcc(str(src), "rip", extra=["--posix"])
    start = time.monotonic()
    r = run([exe, "10000"], timeout=60)
    took = time.monotonic() - start
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout == b"50005000\n"
    assert took < 2.0, took


@pytest.mark.parametrize("backend", BOTH)
def test_destroy_of_a_waited_condition_variable_is_ebusy(tmp_path, ripcc, backend):
    """glibc's pthread_cond_destroy waits for the waiters; the runtime
    answers EBUSY, as POSIX allows."""
    src = tmp_path / "cbusy.c"
    src.write_text(r"""
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int go;
static void *waiter(void *a) {
    (void)a;
    pthread_mutex_lock(&mu);
    while (!go)
        pthread_cond_wait(&c, &mu);
    pthread_mutex_unlock(&mu);
    return NULL;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, waiter, NULL);
    usleep(1000);
    printf("destroy waited: %s\n", pthread_cond_destroy(&c) == EBUSY ? "EBUSY" : "?");
    pthread_mutex_lock(&mu);
    go = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&mu);
    pthread_join(t, NULL);
    printf("destroy: %d\n", pthread_cond_destroy(&c));
    return 0;
}
""")
    r = run([ripcc(str(src), backend, extra=["--posix"])], timeout=20)
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout == b"destroy waited: EBUSY\ndestroy: 0\n"


def test_ripper_posix_rips_a_start_routine_that_blocks_nowhere(tmp_path):
    status, text, err = ripper_posix(tmp_path, (
        "#include <pthread.h>\n"
        "static void *square(void *a) { long n = (long)a; return (void *)(n * n); }\n"
        "int main(void) { pthread_t t; void *v;\n"
        "  pthread_create(&t, 0, square, (void *)3); return pthread_join(t, &v); }\n"))
    assert status == 0, err
    assert err == ""
    assert "rip_posix_pthread_create(&rip__F->t, 0, rip__new_square, (void *)3)" in text
    assert "rip__new_rip_posix_pthread_join(" in text


def test_ripper_posix_refuses_a_start_routine_it_cannot_see(tmp_path):
    status, _, err = ripper_posix(tmp_path, (
        "#include <pthread.h>\n"
        "static void *run(void *a) { return a; }\n"
        "int main(void) { pthread_t t; void *(*fn)(void *) = run;\n"
        "  pthread_create(&t, 0, fn, 0); return pthread_join(t, 0); }\n"))
    assert status == 1
    assert "p.c:4:25: error: pthread_create's start routine is not a function " \
        "named directly, under --posix" in err


def test_ripper_posix_renames_pthread_calls_in_plain_functions(tmp_path):
    """A destructor is called through a plain pointer: it stays plain, and
    its pthread calls go to the runtime (whose mutex is in the user's
    pthread_mutex_t), not to glibc's."""
    status, text, err = ripper_posix(tmp_path, (
        "#include <pthread.h>\n#include <stdlib.h>\n"
        "static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;\n"
        "static void gone(void *v) { pthread_mutex_lock(&mu); free(v); pthread_mutex_unlock(&mu); }\n"
        "int main(void) { pthread_key_t k; pthread_key_create(&k, gone);\n"
        "  return pthread_setspecific(k, malloc(1)); }\n"))
    assert status == 0, err
    assert "static void gone(void *v) { rip_posix_pthread_mutex_lock(&mu); free(v); " \
        "rip_posix_pthread_mutex_unlock(&mu); }" in text
    assert "rip_posix_pthread_key_create(&rip__F->k, gone)" in text


def test_a_plain_function_that_would_wait_for_a_mutex_is_a_fatal_error(tmp_path, ripcc):
    """On rip a plain function cannot suspend: locking a mutex a task holds
    there would stop every task, so it says so and aborts."""
    src = tmp_path / "plainwait.c"
    src.write_text(r"""
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static void on_usr1(int sig) { (void)sig; pthread_mutex_lock(&mu); }
int main(void) {
    signal(SIGUSR1, on_usr1);
    pthread_mutex_lock(&mu);
    raise(SIGUSR1);
    usleep(1000);
    return 0;
}
""")
    r = run([ripcc(str(src), "rip", extra=["--posix"])], timeout=20)
    assert r.returncode != 0
    assert "pthread_mutex_lock would wait in a plain function" in r.stderr.decode()


TLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "posix_pthread", "tls.c")


@pytest.mark.parametrize("backend", ("rip", "ucontext", "threads"))
def test_thread_locals_are_per_thread(ripcc, plain_build, backend):
    """Each thread its own copy of every __thread/_Thread_local variable,
    from the initializer, kept across its sleeps; on rip and ucontext,
    where every task runs on one OS thread, ripper makes each use reach the
    task's copy."""
    plain = run([plain_build(TLS)], timeout=60)
    r = run([ripcc(TLS, backend, extra=["--posix"])], timeout=60)
    assert r.returncode == plain.returncode == 0, r.stderr.decode()
    assert r.stdout == plain.stdout
    assert b"worker 4: fresh 1, own 1\n" in r.stdout


def test_ucontext_thread_locals_are_ripped_only_in_files_that_have_them(tmp_path):
    """ripcc --posix on ucontext runs ripper --posix-tls-only on a file
    with a thread-local, and on no other file (-v shows the commands)."""
    from conftest import RIPCC
    plain = tmp_path / "plain.c"
    plain.write_text("int twice(int a) { return 2 * a; }\n")
    r = run([RIPCC, "--posix", "--backend=ucontext", "-v", "-c", TLS, str(plain)],
            cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr.decode()
    ripped = [line for line in r.stderr.decode().splitlines()
              if line.startswith("ripcc: ripper --posix-tls-only")]
    assert len(ripped) == 1 and ripped[0].endswith("tls.c -o (ripped text)"), ripped


def test_ripper_posix_tls_only_rewrites_thread_locals_and_nothing_else(tmp_path):
    """--posix-tls-only (ripcc on ucontext): each use of a thread-local
    reaches the task's copy; the function that reads stays as written, no
    frame, no rip.h, and the linemarkers keep the user's lines."""
    from conftest import RIPPER
    (tmp_path / "p.c").write_text(
        "#include <unistd.h>\n"
        "static __thread int n = 3;\n"
        "int get(char *b) { n++; return (int)read(0, b, n); }\n")
    r = run([RIPPER, "--posix-tls-only", "p.c", "-o", "p.i"], cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr.decode()
    text = (tmp_path / "p.i").read_text()
    assert "static  int n = 3; static void *rip__tls_n;" in text
    assert "(*(__typeof__(n) *)rip_posix_tls(&rip__tls_n, &n, sizeof(n), __alignof__(n)))++;" \
        in text
    assert "return (int)read(0, b, (*(__typeof__(n) *)rip_posix_tls(" in text
    assert "rip__new_" not in text and "rip__frame" not in text
    assert '\n# 2 "p.c"\nvoid *rip_posix_tls(' in text     # on the user's line 2


def test_ripper_posix_refuses_a_thread_local_declared_in_a_function(tmp_path):
    status, _, err = ripper_posix(tmp_path, FUNCTION_TLS)
    assert status == 1
    assert "p.c:2:49: error: thread-local variable 'n' declared in a function, under --posix" in err


@pytest.mark.parametrize("backend", BOTH)
def test_ripcc_posix_refuses_a_thread_local_declared_in_a_function(tmp_path, backend):
    """Both backends whose tasks share an OS thread: the same refusal, and
    no object (ucontext's first compile, whose tasks would share it, goes)."""
    from conftest import RIPCC
    (tmp_path / "p.c").write_text(FUNCTION_TLS)
    r = run([RIPCC, "--posix", "--backend=" + backend, "-c", "p.c", "-o", "p.o"],
            cwd=str(tmp_path))
    assert r.returncode == 1
    assert "p.c:2:49: error: thread-local variable 'n' declared in a function, under " \
        "--posix" in r.stderr.decode()
    assert not (tmp_path / "p.o").exists()


FUNCTION_TLS = (
    "#include <pthread.h>\n"
    "static void *run(void *a) { static __thread int n; return (void *)(long)(n++ + (long)a); }\n"
    "int main(void) { pthread_t t; pthread_create(&t, 0, run, 0); return pthread_join(t, 0); }\n")


@pytest.mark.parametrize("backend", BOTH)
def test_a_pthread_call_not_mapped_to_tasks_is_refused(tmp_path, backend):
    """pthread_cancel would hand glibc the runtime's pthread_t: refused, by
    ripper on rip (with the place) and by ripcc's link on ucontext."""
    from conftest import RIPCC
    src = tmp_path / "cancel.c"
    src.write_text("#include <pthread.h>\n#include <signal.h>\n"
                   "static void *run(void *a) { return a; }\n"
                   "int main(void) { pthread_t t; pthread_create(&t, 0, run, 0);\n"
                   "  pthread_cancel(t); return pthread_join(t, 0); }\n")
    r = run([RIPCC, "--posix", "--backend=" + backend, str(src), "-o", str(tmp_path / "k")])
    assert r.returncode == 1
    err = r.stderr.decode()
    assert "'pthread_cancel' under --posix, where threads are tasks: it is not mapped to them" \
        in err
    assert ("cancel.c:5:3: error:" if backend == "rip" else "ripcc: error: ") in err, err


KILL_ONE_OF_TWO = r"""
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int pa[2], pb[2];

static void on_usr1(int sig) { (void)sig; write(1, "handler\n", 8); }

static void *reader(void *arg) {
    int *p = arg;
    char buf[8];
    ssize_t n = read(p[0], buf, sizeof buf);
    int err = errno;
    printf("%c: read %zd%s\n", p == pa ? 'A' : 'B', n, n < 0 && err == EINTR ? " EINTR" : "");
    return NULL;
}

int main(void) {
    pthread_t a, b;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;        /* no SA_RESTART */
    sigaction(SIGUSR1, &sa, NULL);
    pipe(pa);
    pipe(pb);
    pthread_create(&a, NULL, reader, pa);   /* the oldest wait */
    pthread_create(&b, NULL, reader, pb);
    usleep(20000);                  /* both wait in read() */
    fflush(stdout);
    printf("kill B: %d\n", pthread_kill(b, SIGUSR1));
    pthread_join(b, NULL);
    printf("kill 0, joined: %s\n", pthread_kill(b, 0) == ESRCH ? "ESRCH" : "?");
    printf("kill 0, never a thread: %s\n", pthread_kill((pthread_t)12345, 0) == ESRCH ? "ESRCH" : "?");
    printf("kill 0, A: %d\n", pthread_kill(a, 0));
    fflush(stdout);
    write(pa[1], "late", 4);        /* A still waits: it reads this */
    pthread_join(a, NULL);
    return 0;
}
"""


@pytest.mark.parametrize("backend", BOTH)
def test_pthread_kill_ends_only_the_target_threads_wait(tmp_path, ripcc, backend):
    """Two threads wait in read(); pthread_kill of the second (not the
    oldest wait, which a process-directed signal would pick once main has
    no wait) runs the handler once and ends only its read, with EINTR;
    the first reads what is written later.  sig 0 on a joined thread or a
    value never a thread's is ESRCH (glibc answers 0 for a joined one,
    whose memory it keeps: undefined in POSIX)."""
    src = tmp_path / "killone.c"
    src.write_text(KILL_ONE_OF_TWO)
    r = run([ripcc(str(src), backend, extra=["--posix"])], timeout=20)
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.decode() == ("handler\nkill B: 0\nB: read -1 EINTR\nkill 0, joined: ESRCH\n"
                                 "kill 0, never a thread: ESRCH\nkill 0, A: 0\nA: read 4\n")


@pytest.mark.parametrize("backend", ("rip", "ucontext", "threads"))
def test_a_start_routine_of_another_file_runs_as_a_task(tmp_path, backend):
    """The file that calls pthread_create cannot tell whether the other
    file ripped the routine (it blocks: async) or left it plain; on rip it
    passes both, as weak references, and the runtime takes the one the
    link found."""
    from conftest import RIPCC
    (tmp_path / "a.c").write_text(
        "#include <pthread.h>\n#include <stdio.h>\n"
        "void *blocking_worker(void *arg);\nvoid *plain_worker(void *arg);\n"
        "int main(void) { pthread_t t, u; void *v, *w;\n"
        "  pthread_create(&t, NULL, blocking_worker, (void *)3);\n"
        "  pthread_create(&u, NULL, plain_worker, (void *)4);\n"
        "  pthread_join(t, &v); pthread_join(u, &w);\n"
        "  printf(\"%ld %ld\\n\", (long)v, (long)w); return 0; }\n")
    (tmp_path / "b.c").write_text(
        "#include <unistd.h>\n"
        "void *blocking_worker(void *arg) { usleep(1000); return (void *)((long)arg * 10); }\n"
        "void *plain_worker(void *arg) { return (void *)((long)arg * 100); }\n")
    exe = str(tmp_path / "ab")
    r = run([RIPCC, "--posix", "--backend=" + backend, str(tmp_path / "a.c"),
             str(tmp_path / "b.c"), "-o", exe])
    assert r.returncode == 0, r.stderr.decode()
    r = run([exe], timeout=20)
    assert (r.returncode, r.stdout) == (0, b"30 400\n"), r.stderr.decode()
