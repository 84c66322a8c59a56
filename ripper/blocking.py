"""blocking.py -- plain blocking calls in async functions (-Wblocking).

A call that blocks its thread (read, sleep, waitpid, pthread_mutex_lock,
fgets...) made in a ripped function stops every task of its scheduler, not
only the caller, until it returns.  ripper warns at each one, with the
rip.h call that suspends instead, or rip_offload:

    RIP_ASYNC void task(void *arg) { sleep(1); }
    -> t.c:1:34: warning: 'sleep' blocks the whole scheduler in async function 'task' [-Wblocking]
           1 | RIP_ASYNC void task(void *arg) { sleep(1); }
             |                                  ^
       t.c:1:34: note: use rip_sleep_ms(milliseconds): it suspends only this task

What counts: a call C evaluates (not one in sizeof), by name, of the C
library's function -- declared in a system header and defined nowhere in
the user's file (a function of the user's own named `read` is not libc's)
-- written in a function ripper rips because it is async.  A call a macro
expands to is found too, at the macro's place.  Plain functions are not
checked (they may run before rip_run, where blocking is fine), nor is any
function under --all-async, a testing mode that makes real programs async
wholesale.  Output stdio (printf, fputs, fflush...) is not flagged: it
blocks only on a full pipe or socket, and flagging every printf in a task
would bury the calls that wait on a peer (docs/accepts.md, "Plain blocking calls").

Options, read (and taken out of the compiler's flags) by ripper and ripcc,
the last of each kind winning as with gcc: -Wblocking (the default),
-Wno-blocking, -Werror=blocking (also turns the check on),
-Wno-error=blocking; gcc's -w silences it too.  -Werror alone does not make
it an error: it is meant for the compiler's warnings, which a build has
cleaned, not for a check the build has never met.
"""

import re

from .diag import Diagnostic
# evaluation (and the tree) is imported by check(): the commands read the
# options at start-up, which every file of a build pays, the tree later.

OPTION = "blocking"
FLAGS = ("-Wblocking", "-Wno-blocking", "-Werror=blocking", "-Wno-error=blocking")

# What to do instead, one text per kind of call (the table HINT_OF reads).
_READ = "use rip_read(fd, buf, len) (like read(2)): it suspends only this task"
_OFFLOAD = "run it with rip_offload(fn, arg): fn(arg) runs on the offload pool's thread " \
           "while this task waits"
_STDIO_IN = "read the stream's fd (fileno) with rip_read and split it yourself, or run the " \
            "stdio call with rip_offload(fn, arg)"
_SLEEP = "use rip_sleep_ms(milliseconds): it suspends only this task"
_POLL = "wait on each fd with rip_read, rip_write or rip_accept (a task per fd), or run it " \
        "with rip_offload(fn, arg)"
_LOCK = "use rip_mutex_lock(m) on a rip_mutex (it suspends only this task); tasks of one " \
        "scheduler switch only where they suspend, so a lock no suspension crosses needs " \
        "none; a lock another thread holds: take it with rip_offload(fn, arg)"
_WAIT_TASK = "wait for a task with rip_wg_wait or rip_chan_recv; to wait for a thread, " \
             "run the call with rip_offload(fn, arg)"
_SIGNAL = "wait for the signal through an fd (signalfd or a self-pipe) with rip_read"
HINT_OF = {
    "read": _READ,
    "recv": "use rip_read(fd, buf, len) (recv with flags 0 is read); for other flags run "
            "it with rip_offload(fn, arg)",
    "write": "use rip_write(fd, buf, len): it suspends only this task, and writes all len "
             "bytes or returns -1 (not read(2)'s short count)",
    "send": "use rip_write(fd, buf, len) (send with flags 0 is write; rip_write writes all "
            "len bytes or returns -1); for other flags run it with rip_offload(fn, arg)",
    "accept": "use rip_accept(fd, addr, len): it suspends only this task",
    "accept4": "use rip_accept(fd, addr, len) and set the flags with fcntl: it suspends "
               "only this task",
    "connect": "use rip_connect(fd, addr, len): it suspends only this task",
    "sleep": _SLEEP, "usleep": _SLEEP, "nanosleep": _SLEEP, "clock_nanosleep": _SLEEP,
    "poll": _POLL, "ppoll": _POLL, "select": _POLL, "pselect": _POLL, "epoll_wait": _POLL,
    "epoll_pwait": _POLL, "epoll_pwait2": _POLL,
    "pthread_mutex_lock": _LOCK, "pthread_mutex_timedlock": _LOCK,
    "pthread_rwlock_rdlock": _LOCK, "pthread_rwlock_wrlock": _LOCK,
    "pthread_rwlock_timedrdlock": _LOCK, "pthread_rwlock_timedwrlock": _LOCK,
    "pthread_cond_wait": "use rip_cond_wait(c, m) with a rip_cond and a rip_mutex, or wait "
                         "for another task with rip_chan_recv or rip_wg_wait",
    "pthread_cond_timedwait": "use rip_cond_wait(c, m) under rip_set_deadline (ETIMEDOUT, the "
                              "mutex held again), or rip_chan_recv or rip_wg_wait",
    "pthread_join": _WAIT_TASK, "pthread_barrier_wait": _WAIT_TASK,
    "sem_wait": "wait for another task with rip_chan_recv (a channel of capacity N counts "
                "like a semaphore)",
    "sigwait": _SIGNAL, "sigwaitinfo": _SIGNAL, "sigtimedwait": _SIGNAL,
    "sigsuspend": _SIGNAL, "pause": _SIGNAL,
}
# Calls that wait on a peer, a child, the network or the disk, with no
# suspending form in rip.h (yet): rip_offload.
for _name in """readv writev pread pwrite preadv pwritev preadv2 pwritev2 recvfrom sendto
        recvmsg sendmsg recvmmsg sendmmsg sendfile splice tee
        waitpid wait waitid wait3 wait4 system popen pclose
        getaddrinfo gethostbyname gethostbyname2 gethostbyname_r gethostbyname2_r
        gethostbyaddr gethostbyaddr_r getnameinfo res_query res_search
        fsync fdatasync sync syncfs tcdrain flock lockf fcntl
        sem_timedwait sem_clockwait pthread_cond_clockwait pthread_timedjoin_np
        pthread_clockjoin_np msgrcv msgsnd semop semtimedop mq_receive mq_send
        mq_timedreceive mq_timedsend""".split():
    HINT_OF.setdefault(_name, _OFFLOAD)
# stdio input, which waits for its stream's bytes.
for _name in """fgets fgetc getc getchar getline getdelim fread fscanf scanf vfscanf vscanf
        gets fgets_unlocked fgetc_unlocked getc_unlocked getchar_unlocked fread_unlocked
        fgetws fgetwc getwc getwchar fwscanf wscanf __isoc99_scanf __isoc99_fscanf
        __isoc99_vscanf __isoc99_vfscanf __isoc23_scanf __isoc23_fscanf __isoc23_vscanf
        __isoc23_vfscanf""".split():
    HINT_OF[_name] = _STDIO_IN
# The calls POSIX mode (ripper --posix, ripcc --posix; issue 22, point 1)
# makes resume points, each with its system call's contract: ripped code
# calls rip_posix_NAME (runtime/include/rip_posix.h) for NAME; the ucontext
# backend links with -Wl,--wrap=NAME for each; threads calls NAME itself.
# The other names of HINT_OF are not handled yet: --posix still warns there.
POSIX_CALLS = ("read", "write", "readv", "writev", "recv", "send", "recvfrom", "sendto",
               "recvmsg", "sendmsg", "accept", "accept4", "connect", "poll", "select",
               "epoll_wait", "sleep", "usleep", "nanosleep")
# Issue 22, EINTR part: the calls with a signal mask, and clock_nanosleep,
# are resume points too; a handled signal ends a wait as signal(7) says.
POSIX_SIGNAL_WAITS = ("ppoll", "pselect", "epoll_pwait", "clock_nanosleep", "pause", "sigsuspend")
POSIX_CALLS += POSIX_SIGNAL_WAITS
# Calls --posix sends to the runtime without making them resume points:
# the link wraps them on rip and ucontext (-Wl,--wrap=NAME to
# __wrap_NAME, runtime/src/core/psignal.c): the program's signal handlers
# run behind a trampoline that tells the scheduler, so a signal ends a
# waiting call with EINTR; close wakes the fd's waiters (EBADF).
POSIX_LINK_WRAPPED = ("sigaction", "signal", "__sysv_signal", "siginterrupt", "close")
# On ucontext also the mask calls: swapcontext restores each context's own
# mask, so the runtime hands the program's to every context.
POSIX_UCONTEXT_WRAPPED = ("sigprocmask", "pthread_sigmask")
# Offload block (issue 22, point 1, fourth bullet): calls with no
# non-blocking form.  Under --posix they run on the offload pool while the
# task waits (a waitpid for one child waits on its pidfd instead; a
# WNOHANG, LOCK_NB or uncontended lock, an fd call on a regular file whose
# data is cached, goes direct: core/pxcall.c says when).
POSIX_OFFLOADED = ("waitpid", "wait", "waitid", "getaddrinfo", "getnameinfo", "gethostbyname",
                   "gethostbyname2", "fsync", "fdatasync", "system", "flock", "fcntl", "open",
                   "openat", "pread", "pwrite")
POSIX_CALLS = POSIX_CALLS + POSIX_OFFLOADED
# The later offload block (issue 22 point 1): wait4 as waitpid (a pidfd
# for one child), wait3 as wait, lockf as flock (F_TLOCK first),
# gethostbyaddr, sync, syncfs on the pool; popen on the pool (glibc's
# waits for the exec of sh, a millisecond or more) under the caller's
# signal mask, its stream a pipe that the stdio calls (POSIX_STDIO)
# suspend on; pclose on the pool (its pending output, its child's wait).
POSIX_OFFLOADED_LATER = ("wait4", "wait3", "gethostbyaddr", "sync", "syncfs", "lockf", "popen",
                         "pclose")
POSIX_CALLS = POSIX_CALLS + POSIX_OFFLOADED_LATER
# The scanf family under --posix (issue 22, stdio part): resume points
# too; glibc's vfscanf runs over the bytes the task waited for
# (runtime/src/core/stdio.c).  <stdio.h> renames them to the __isoc99_
# forms, which the ucontext link wraps as well.  The wide forms are not
# handled: the hint names what is.
POSIX_SCANF = ("scanf", "fscanf", "vscanf", "vfscanf")
POSIX_SCANF_LINKED = ("__isoc99_scanf", "__isoc99_fscanf", "__isoc99_vscanf", "__isoc99_vfscanf")
_SCANF_POSIX = "on a socket, pipe or terminal it would wait in the scheduler's thread (a " \
               "regular file never waits); read with fscanf or fgets, which --posix makes " \
               "suspend (then swscanf, or mbstowcs and sscanf)"
# fcntl waits only for F_SETLKW: --posix makes it a resume point only in a
# file where some fcntl call is written with it (posix_call_wanted).
POSIX_PREFIX = "rip_posix_"
# What _FORTIFY_SOURCE makes of some of them where it cannot prove the
# buffer big enough: the ucontext link wraps these too.
POSIX_FORTIFIED = ("__read_chk", "__recv_chk", "__recvfrom_chk", "__pread_chk", "__open_2",
                   "__openat_2")
# What a program built with -D_FILE_OFFSET_BITS=64 calls for open, openat,
# pread, pwrite and fcntl (glibc's headers rename them): wrapped too.
POSIX_LFS = ("open64", "openat64", "pread64", "pwrite64", "fcntl64")
POSIX_LFS = POSIX_LFS + ("lockf64",)     # the later block's one
# stdio on sockets, pipes and terminals (issue 22, point 1, fourth part):
# the task waits where glibc's call would block its thread
# (runtime/src/core/stdio.c); output calls count too, since a full buffer
# or a newline on a line-buffered stream writes.
POSIX_STDIO = ("fgets", "fgetc", "getc", "getchar", "getline", "getdelim", "fread", "fwrite",
               "fputs", "puts", "fputc", "putc", "putchar", "printf", "fprintf", "vprintf",
               "vfprintf", "dprintf", "vdprintf", "fflush", "fclose")
POSIX_STDIO = POSIX_STDIO + POSIX_SCANF
POSIX_CALLS = POSIX_CALLS + POSIX_STDIO
# The names a plain build calls for stdio where the source said otherwise:
# getline inlined into __getdelim (-O), and _FORTIFY_SOURCE's forms.
POSIX_STDIO_FORTIFIED = ("__getdelim", "__printf_chk", "__fprintf_chk", "__vfprintf_chk",
                         "__vprintf_chk", "__fgets_chk", "__fread_chk", "__dprintf_chk",
                         "__vdprintf_chk")
POSIX_STDIO_FORTIFIED = POSIX_STDIO_FORTIFIED + POSIX_SCANF_LINKED
POSIX_FORTIFIED = POSIX_FORTIFIED + POSIX_STDIO_FORTIFIED
# What --posix does not map yet but a program means otherwise under it:
# said at each call in an async function, with what happens instead.
POSIX_NOT_YET = {}
# pthreads under --posix: a thread is a task (runtime/src/*/pthread.c).
# The calls that may wait are resume points as POSIX_CALLS are (ripped
# code calls the frame of rip_posix_NAME); every one of both tuples is
# renamed rip_posix_NAME wherever the program names it, plain functions
# too (same signature; the runtime keeps its own state in the user's
# pthread_mutex_t...), and the ucontext link wraps them all.
# pthread_create's start routine, named directly, becomes a task's function
# (analysis.py: the one plain function pointer that may be async).
POSIX_PTHREAD_WAITS = ("pthread_join", "pthread_exit", "pthread_mutex_lock",
                       "pthread_mutex_timedlock", "pthread_cond_wait", "pthread_cond_timedwait",
                       "pthread_rwlock_rdlock", "pthread_rwlock_wrlock",
                       "pthread_rwlock_timedrdlock", "pthread_rwlock_timedwrlock")
POSIX_PTHREAD_CALLS = ("pthread_create", "pthread_detach", "pthread_self", "pthread_equal",
                       "pthread_mutex_init", "pthread_mutex_destroy", "pthread_mutex_trylock",
                       "pthread_mutex_unlock", "pthread_cond_init", "pthread_cond_destroy",
                       "pthread_cond_signal", "pthread_cond_broadcast", "pthread_key_create",
                       "pthread_key_delete", "pthread_getspecific", "pthread_setspecific",
                       "pthread_rwlock_init", "pthread_rwlock_destroy",
                       "pthread_rwlock_tryrdlock", "pthread_rwlock_trywrlock",
                       "pthread_rwlock_unlock", "pthread_once")
# pthread_kill: a thread-directed signal ends the target task's wait
# (core/psignal.c).
POSIX_PTHREAD_SIGNAL = ("pthread_kill",)
POSIX_PTHREAD = POSIX_PTHREAD_WAITS + POSIX_PTHREAD_CALLS + POSIX_PTHREAD_SIGNAL
# The C library's pthread calls that take a thread (a pthread_t, now the
# runtime's) or a mutex, condition variable or rwlock (holding the
# runtime's object), or that would block every task (barriers, spins):
# not mapped, so refused under --posix, where the program names them
# (ripper, on rip; ripcc's link, on ucontext).
POSIX_PTHREAD_REFUSED = tuple("""pthread_cancel pthread_sigqueue
        pthread_timedjoin_np pthread_tryjoin_np pthread_clockjoin_np pthread_getattr_np
        pthread_setname_np pthread_getname_np pthread_setschedparam pthread_getschedparam
        pthread_setschedprio pthread_setaffinity_np pthread_getaffinity_np pthread_getcpuclockid
        pthread_mutex_clocklock pthread_mutex_consistent pthread_mutex_consistent_np
        pthread_mutex_getprioceiling pthread_mutex_setprioceiling pthread_cond_clockwait
        pthread_rwlock_clockrdlock pthread_rwlock_clockwrlock pthread_spin_init
        pthread_spin_destroy pthread_spin_lock pthread_spin_trylock pthread_spin_unlock
        pthread_barrier_init pthread_barrier_destroy pthread_barrier_wait""".split())


# The clause the hint of each of POSIX_CALLS ends with: POSIX mode rips
# them as they are written.
POSIX_CLAUSE = "or rip the program with --posix, which makes '%s' suspend as written"
# fcntl waits only when it takes a lock and waits for it (F_SETLKW); a
# socket call told MSG_DONTWAIT never waits.  Both as the user wrote them
# on the call's lines (a macro's value is gone from the expanded text).
_FCNTL_WAITS = re.compile(rb"\bF_(?:OFD_)?SETLKW(?:64)?\b")
_DONTWAIT = re.compile(rb"\bMSG_DONTWAIT\b")
_TAKE_FLAGS = frozenset("recv send recvfrom sendto recvmsg sendmsg recvmmsg sendmmsg".split())


def hint(name, posix=False):
    """What to do instead of blocking call `name` (`posix`: under --posix,
    which handles POSIX_CALLS itself, so the call named is not one).

        hint("sleep") -> "use rip_sleep_ms(milliseconds): it suspends only this task; or
                          rip the program with --posix, which makes 'sleep' suspend as written"
    """
    text = HINT_OF[name]
    if posix:
        return "--posix does not handle '%s' yet: %s" % (
            name, _SCANF_POSIX if "scanf" in name else text)
    return text + "; " + POSIX_CLAUSE % name if name in POSIX_CALLS else text


def mode(flags, default="warn"):
    """"warn", "error" or "off": what the check does after compiler flags
    `flags`, read in order (the last of each kind wins; -w anywhere, as in
    gcc, silences it).

        mode(["-O2", "-Werror=blocking"]) -> "error"
        mode(["-Werror=blocking", "-Wno-blocking"]) -> "off"
    """
    on, error = default != "off", default == "error"
    for f in flags:
        if f in ("-Wblocking", "-Werror=blocking"):
            on = True
        if f == "-Werror=blocking":
            error = True
        elif f == "-Wno-error=blocking":
            error = False
        elif f == "-Wno-blocking":
            on = False
    return "off" if not on or "-w" in flags else "error" if error else "warn"


def without_flags(flags):
    """`flags` less the check's own options, which no compiler knows (gcc
    fails on -Werror=blocking); -w stays, it is the compiler's too."""
    return [f for f in flags if f not in FLAGS]


def flag_of(how):
    """The option that asks for mode `how` ("" for the default), as ripcc -v shows it."""
    return {"warn": "", "error": "-Werror=blocking", "off": "-Wno-blocking"}[how]


def check(unit, analysis, how="warn"):
    """A Diagnostic (a warning, or an error if `how` is "error") for each
    plain blocking call in an async function of `unit`, in source order."""
    if how == "off" or analysis.all_async:
        return []
    from .evaluation import callee_name, calls
    system = {f.name for f in unit.functions if f.system}
    found, seen = [], set()
    for name, f in analysis.defined.items():
        if name not in analysis.names and not analysis.posix:
            continue
        for call in calls(f.body):
            callee = callee_name(call)
            # a function of the program's (defined here, or async in another
            # object: analysis.also_async) is not the library's of that name
            if analysis.posix and callee in POSIX_NOT_YET and callee in system and \
                    callee not in analysis.defined and callee not in analysis.also_async:
                found.append(_diagnostic(unit, call, callee, name, how,
                                         note=POSIX_NOT_YET[callee]))
                continue
            if name not in analysis.names or callee not in HINT_OF or callee not in system or \
                    callee in analysis.defined or callee in analysis.posix_calls or \
                    callee in analysis.also_async:
                continue
            if callee == "fcntl" and not _written_on_its_lines(unit, call, _FCNTL_WAITS):
                continue
            if callee in _TAKE_FLAGS and _written_on_its_lines(unit, call, _DONTWAIT):
                continue
            d = _diagnostic(unit, call, callee, name, how, analysis.posix)
            d.why = "'%s' is async: %s" % (name, analysis.chain(name))
            key = (d.path, d.line, d.col, d.message)
            if key not in seen:         # two calls at one place (one macro): one message
                seen.add(key)
                found.append(d)
    if analysis.posix:
        found += _uncaught_pointers(unit, analysis, how)
    return found


def _uncaught_pointers(unit, analysis, how):
    """--posix: a signal wait of the C library taken as a function pointer
    (`waiter = pause;`): a call through it is the library's, which
    rip's run-time catch (rip/catch.c) has no form of, so it blocks every
    task while it waits.  (The other calls taken so, stdio's too, are
    caught at run time, and pthread's waits are refused: lower.py.)"""
    from .analysis import function_values
    uncaught = set(POSIX_SIGNAL_WAITS)
    system = {f.name for f in unit.functions if f.system}
    return [_taken_diagnostic(unit, ref, how)
            for body in [f.body for f in analysis.defined.values()] + list(unit.globals)
            for ref in function_values(body)
            if ref.name in uncaught and ref.name in system and ref.name not in analysis.defined
            and ref.name not in analysis.also_async]


def _taken_diagnostic(unit, ref, how):
    """A signal wait taken as a function pointer (_uncaught_pointers)."""
    return _named_diagnostic(unit, ref.start, ref.name, how,
                             "taken as a function pointer: a call through it is the C "
                             "library's, which blocks every task while it waits",
                             "call '%s' by name where it may wait, or through a function of "
                             "your own that calls it" % ref.name)


def _diagnostic(unit, call, callee, function, how, posix=False, note=None):
    if note is not None:        # POSIX_NOT_YET: not a block, a meaning --posix does not give yet
        d = _named_diagnostic(unit, call.callee.start, callee, how,
                              "in '%s' starts a thread, not a task" % function, note)
    else:
        d = _named_diagnostic(unit, call.callee.start, callee, how,
                              "blocks the whole scheduler in async function '%s'" % function,
                              hint(callee, posix))
    d.function = function       # gcc's "In function 'f':" before it
    return d


def _named_diagnostic(unit, offset, name, how, message, hint_text):
    """The -Wblocking Diagnostic about `name`, written at `offset`: its
    place (a macro's use, where a macro wrote it), then `message` after
    the name; an error where `how` is "error", else a warning.

        _named_diagnostic(unit, off, "read", "warn", "blocks ...", None).message
        -> "'read' (in the expansion of macro 'READ') blocks ..."
    """
    path, line, _ = unit.lines.where(offset)
    col, macro = unit.lines.place_of_name(offset, name)
    what = "'%s'" % name if macro is None else \
        "'%s' (in the expansion of macro '%s')" % (name, macro)
    return Diagnostic(path, line, col, "%s %s" % (what, message), hint_text,
                      severity="error" if how == "error" else "warning", option=OPTION)


def fcntl_waits(unit, functions):
    """Is some fcntl call in `functions` (definitions of `unit`) written
    with F_SETLKW, the one command that waits?  --posix rips fcntl only
    then (a program's other fcntl calls stay plain, and so its functions).

        fcntl_waits(<fcntl(fd, F_SETLKW, &lk) in f>, [f]) -> True
    """
    from .evaluation import callee_name, calls
    return any(callee_name(c) == "fcntl" and _written_on_its_lines(unit, c, _FCNTL_WAITS)
               for f in functions for c in calls(f.body))


def _written_on_its_lines(unit, call, pattern):
    """Does `pattern` match a line of the user's file that `call` is on?"""
    lines = unit.lines
    path, first, _ = lines.where(call.start)
    last = lines.where(max(call.end - 1, call.start))[1]
    for n in range(first, max(first, last) + 1):
        text = lines.original_line(path, n)
        if text is not None and pattern.search(text):
            return True
    return False
