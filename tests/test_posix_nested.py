"""Waits in plain code under POSIX mode on rip: a function called through
a plain pointer (a comparator, a handler table's) cannot suspend, so a
wait there runs the other tasks nested inside the waiting one until the
wait ends (tests/posix/plain_waits.c compares the results with the plain
build).  These check what a comparison cannot show: a wait that could
never end, because what it waits for is itself waiting further down the
same C stack, or because no task could ever end it, is a fatal error
with a clear message at once, not a hang."""
import pytest

from conftest import run

# main's handler joins h, whose hook waits for a signaller: fine plain;
# on rip main's join runs on top of h's wait, which so can never return.
JOIN_BELOW = r"""
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready;
static int wait_ready(void) {
    pthread_mutex_lock(&mu);
    while (!ready)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
    return 0;
}
static int (*const hook)(void) = wait_ready;
static void *hooked(void *arg) { hook(); return arg; }
static void *signaller(void *arg) {
    usleep(20000);
    pthread_mutex_lock(&mu);
    ready = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    return arg;
}
static pthread_t h;
static int join_h(void) { return pthread_join(h, NULL); }
static int (*const join_hook)(void) = join_h;
int main(void) {
    pthread_t s;
    pthread_create(&h, NULL, hooked, NULL);
    pthread_create(&s, NULL, signaller, NULL);
    usleep(5000);                   /* h waits first, in its hook */
    join_hook();                    /* on rip: on top of h's wait, which cannot return */
    pthread_join(s, NULL);
    puts("joined");
    return 0;
}
"""

# main's comparator waits on a condition variable nobody will signal:
# the only other thread waits for good too.
NOBODY_SIGNALS = r"""
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER, other = PTHREAD_COND_INITIALIZER;
static int go;
static void *stuck(void *arg) {
    pthread_mutex_lock(&mu);
    while (!go)
        pthread_cond_wait(&other, &mu);
    pthread_mutex_unlock(&mu);
    return arg;
}
static int by_value(const void *a, const void *b) {
    pthread_mutex_lock(&mu);
    while (!go)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
    return *(const int *)a - *(const int *)b;
}
int main(void) {
    pthread_t t;
    int v[] = { 2, 1 };
    pthread_create(&t, NULL, stuck, NULL);
    qsort(v, 2, sizeof v[0], by_value);
    return 0;
}
"""

# main's handler locks a mutex whose holder waits on a condition variable
# nobody will signal: the nested lock waited in epoll_wait for good before.
HOLDER_STUCK = r"""
#include <pthread.h>
#include <unistd.h>
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER, held = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static void *holder(void *arg) {
    pthread_mutex_lock(&held);
    pthread_mutex_lock(&mu);
    pthread_cond_wait(&never, &mu);
    return arg;
}
static int lock_held(void) { return pthread_mutex_lock(&held); }
static int (*const hook)(void) = lock_held;
int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, holder, NULL);
    usleep(5000);
    return hook();
}
"""

# h's hook waits for `ready`; main, running on top of it, waits in its
# own hook for `done` (under another mutex: h, woken, holds the first),
# which h sets only after its hook returns.
WOKEN_BELOW = r"""
#include <pthread.h>
#include <unistd.h>
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER, mu2 = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER, cv2 = PTHREAD_COND_INITIALIZER;
static int ready, done;
static void wait_for(int *flag, pthread_mutex_t *m, pthread_cond_t *c) {
    pthread_mutex_lock(m);
    while (!*flag)
        pthread_cond_wait(c, m);
    pthread_mutex_unlock(m);
}
static void (*const hook)(int *, pthread_mutex_t *, pthread_cond_t *) = wait_for;
static void *hooked(void *arg) {
    hook(&ready, &mu, &cv);
    pthread_mutex_lock(&mu2);
    done = 1;
    pthread_cond_broadcast(&cv2);
    pthread_mutex_unlock(&mu2);
    return arg;
}
int main(void) {
    pthread_t h;
    pthread_create(&h, NULL, hooked, NULL);
    usleep(5000);                   /* h waits first, in its hook */
    pthread_mutex_lock(&mu);
    ready = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    hook(&done, &mu2, &cv2);        /* on rip: on top of h's wait, which cannot return */
    return 0;
}
"""

CASES = {
    "join_below": (JOIN_BELOW, "rip: pthread_join in a plain function (one called through a "
                   "pointer) would wait for a thread that itself waits in a plain function "
                   "further down: it could never return"),
    "nobody_signals": (NOBODY_SIGNALS, "rip: deadlock: pthread_cond_wait in a plain function "
                       "(one called through a pointer) waits for good: every other task "
                       "waits too, and no timer or fd can wake one"),
    "holder_stuck": (HOLDER_STUCK, "rip: deadlock: pthread_mutex_lock in a plain function "
                     "(one called through a pointer) waits for good: every other task waits "
                     "too"),
    "woken_below": (WOKEN_BELOW, "rip: deadlock: pthread_cond_wait in a plain function (one "
                    "called through a pointer) waits for good: no task can run, and 1 "
                    "task(s) waiting in plain functions further down this C stack can only "
                    "go on once it returns"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_plain_wait_that_could_never_end_is_a_clear_fatal_error(tmp_path, ripcc, case):
    """Each program would wait for good on rip (a plain function's wait
    under one nested further up, or every task waiting): it stops at once
    with a message that says why, within the timeout."""
    source, message = CASES[case]
    src = tmp_path / (case + ".c")
    src.write_text(source)
    r = run([ripcc(str(src), "rip", extra=["--posix"])], timeout=20)
    assert r.returncode != 0
    assert message in r.stderr.decode(), r.stderr.decode()


def test_a_timed_lock_on_a_mutex_held_further_down_times_out(tmp_path, ripcc):
    """A timed lock in plain code on a mutex held by a task that waits in
    plain code further down could never be granted, but its timeout ends
    it: ETIMEDOUT, no fatal error (the holder then goes on)."""
    src = tmp_path / "timed_below.c"
    src.write_text(r"""
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER, held = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready;
static void wait_ready(void) {
    pthread_mutex_lock(&mu);
    while (!ready)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
}
static int timed(void) {
    struct timespec at;
    clock_gettime(CLOCK_REALTIME, &at);
    at.tv_nsec += 30000000;
    if (at.tv_nsec >= 1000000000) { at.tv_sec++; at.tv_nsec -= 1000000000; }
    return pthread_mutex_timedlock(&held, &at);
}
static void (*const hook)(void) = wait_ready;
static int (*const timed_hook)(void) = timed;
static void *holder(void *arg) {
    pthread_mutex_lock(&held);
    hook();                         /* waits in plain code, holding `held` */
    pthread_mutex_unlock(&held);
    return arg;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, holder, NULL);
    usleep(5000);
    int r = timed_hook();           /* on rip: on top of the holder's wait */
    pthread_mutex_lock(&mu);
    ready = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    pthread_join(t, NULL);
    printf("%s\n", r == ETIMEDOUT ? "ETIMEDOUT" : "other");
    return 0;
}
""")
    r = run([ripcc(str(src), "rip", extra=["--posix"])], timeout=20)
    assert (r.returncode, r.stdout, r.stderr) == (0, b"ETIMEDOUT\n", b"")


def test_a_signal_ends_another_tasks_wait_while_one_waits_nested(tmp_path, ripcc):
    """While main waits in its comparator (nested), a signal sent to a
    thread blocked in read() ends that read with EINTR, as the plain build's
    does, and the thread then wakes main."""
    src = tmp_path / "signal_nested.c"
    src.write_text(r"""
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready, fds[2], read_errno;
static pthread_t reader_id;
static void on_usr1(int sig) { (void)sig; }
static void *reader(void *arg) {
    char c;
    if (read(fds[0], &c, 1) == -1)
        read_errno = errno;
    pthread_mutex_lock(&mu);
    ready = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    return arg;
}
static void *kicker(void *arg) {
    usleep(20000);
    pthread_kill(reader_id, SIGUSR1);
    return arg;
}
static int by_value(const void *a, const void *b) {
    pthread_mutex_lock(&mu);
    while (!ready)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
    return *(const int *)a - *(const int *)b;
}
int main(void) {
    struct sigaction sa = { .sa_handler = on_usr1 };   /* no SA_RESTART: read ends */
    sigaction(SIGUSR1, &sa, NULL);
    if (pipe(fds) != 0)
        return 1;
    pthread_t k;
    pthread_create(&reader_id, NULL, reader, NULL);
    pthread_create(&k, NULL, kicker, NULL);
    int v[] = { 2, 1 };
    qsort(v, 2, sizeof v[0], by_value);
    pthread_join(reader_id, NULL);
    pthread_join(k, NULL);
    printf("%d %d, read: %s\n", v[0], v[1], read_errno == EINTR ? "EINTR" : "other");
    return 0;
}
""")
    r = run([ripcc(str(src), "rip", extra=["--posix"])], timeout=20)
    assert (r.returncode, r.stdout, r.stderr) == (0, b"1 2, read: EINTR\n", b"")


def test_pthread_exit_in_a_signal_handler_is_a_clear_fatal_error(tmp_path, ripcc):
    """A signal handler runs inside the code it interrupts (the scheduler's
    own, maybe), which cannot be left there: pthread_exit in it stops
    with a message on rip, not a corrupted scheduler."""
    src = tmp_path / "exit_in_handler.c"
    src.write_text(r"""
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
static void on_usr1(int sig) { (void)sig; pthread_exit(NULL); }
static void *victim(void *arg) { raise(SIGUSR1); return arg; }
int main(void) {
    pthread_t t;
    signal(SIGUSR1, on_usr1);
    pthread_create(&t, NULL, victim, NULL);
    return pthread_join(t, NULL);
}
""")
    r = run([ripcc(str(src), "rip", extra=["--posix"])], timeout=20)
    assert r.returncode != 0
    assert "rip: pthread_exit in a signal handler on the rip backend: the handler runs " \
        "inside the code it interrupts" in r.stderr.decode(), r.stderr.decode()
