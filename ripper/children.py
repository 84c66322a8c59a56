"""children.py -- what a command started, ended when it is told to end.

ripper and ripcc start children (the ripping child, the compiler, the
linker, make) and make temporary files and folders.  Every child leads its
own process group, so that ending it ends what it started too (cc's cc1
and as, the ripping child's preprocessor); every temporary is recorded.
On SIGINT, SIGTERM or SIGHUP (install()) the command sends the signal on
to every group (gcc then deletes its own half-written output), SIGKILLs
what is left after GRACE_SECONDS, removes every temporary, and dies of the
signal, as a killed cc does (the shell says 130, 143 or 129):

    install()
    with temporary_folder("ripcc-") as tmp:      # removed whatever happens
        run(["cc", "-c", "a.c", "-o", os.path.join(tmp, "a.o")])

The ripping child (cli.py) leads the group its preprocessor runs in
(lead_own_group()); its parent ends that whole group when the child is
done, on an error, a time limit or a signal.  held_special_file() names a
FIFO or device a preprocessor is reading (an #include of /dev/urandom),
which would keep it reading or waiting without end.
"""

import os
import signal
import stat
import subprocess
import sys
import time

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
GRACE_SECONDS = 1.0             # a child told to end has this long before SIGKILL

_groups = {}                    # process group id -> its leader (a Popen, or _Forked)
_temporaries = {}               # path -> True for a folder (removed whole), False for a file
_deferring = [0]                # > 0: a signal waits in _pending until defer() ends
_pending = []                   # the signal that came while deferred
_leader = [False]               # this process is a ripping child leading its own group


class _Forked:
    """A forked child, as _groups records it (a Popen has the same field)."""
    returncode = None           # set once it has been waited for


def install():
    """End children and remove temporaries on SIGINT, SIGTERM and SIGHUP
    (one that is ignored, under nohup say, stays ignored)."""
    for sig in SIGNALS:
        if signal.getsignal(sig) != signal.SIG_IGN:
            signal.signal(sig, _on_signal)


class defer:
    """A section in which a signal waits: a child started or a temporary
    made is recorded before the signal is handled, so it cannot be missed.

        with defer():
            p = subprocess.Popen(...); _groups[p.pid] = p
    """

    def __enter__(self):
        _deferring[0] += 1

    def __exit__(self, *exc):
        _deferring[0] -= 1
        if not _deferring[0] and _pending:
            _end(_pending[0])


def _on_signal(sig, frame):
    if _deferring[0]:
        if not _pending:
            _pending.append(sig)
        return
    _end(sig)


def _end(sig):
    """End every child group, remove every temporary, die of `sig`."""
    for s in SIGNALS:                       # a second signal changes nothing now
        try:
            signal.signal(s, signal.SIG_IGN)
        except (OSError, ValueError):
            pass
    end_groups(sig)
    for path, folder in list(_temporaries.items()):
        _remove(path, folder)
    try:
        sys.stderr.flush()
    except Exception:
        pass
    signal.signal(sig, signal.SIG_DFL)
    os.kill(os.getpid(), sig)
    os._exit(128 + sig)                     # not reached: the signal ends the process


def end_groups(sig):
    """Send `sig` to every child group that has not been waited for, give
    them GRACE_SECONDS, SIGKILL what is left, and reap the leaders."""
    live = [g for g, leader in _groups.items() if leader.returncode is None]
    for g in live:
        _killpg(g, sig)
    deadline = time.monotonic() + GRACE_SECONDS
    while live and time.monotonic() < deadline:
        live = [g for g in live if not _group_gone(g)]
        if live:
            time.sleep(0.01)
    for g in live:
        _killpg(g, signal.SIGKILL)
        try:
            os.waitpid(g, 0)
        except ChildProcessError:
            pass
    _groups.clear()


def _group_gone(g):
    try:
        os.waitpid(g, os.WNOHANG)           # the leader, our child: reaped once it ends
    except ChildProcessError:
        pass
    try:
        os.killpg(g, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        pass
    # a zombie member (its parent, init, has not reaped it yet) is ended too
    return all(_state(pid) == "Z" for pid in _members(g))


def _members(g):
    out = []
    for name in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if name.isdigit():
            try:
                with open("/proc/%s/stat" % name, "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[2]) == g:
                out.append(int(name))
    return out


def _state(pid):
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0].decode()
    except (OSError, IndexError):
        return "Z"


def _killpg(g, sig):
    try:
        os.killpg(g, sig)
    except (ProcessLookupError, PermissionError):
        pass


def kill_group(g):
    """SIGKILL child group `g` (its leader not yet waited for: the id is ours)."""
    _killpg(g, signal.SIGKILL)


def track(pid, leader=None):
    """Record child `pid`, the leader of its own group."""
    _groups[pid] = leader if leader is not None else _Forked()


def untrack(pid):
    _groups.pop(pid, None)


def lead_own_group():
    """In a forked child: lead a group of its own (what it starts stays in
    it, for the parent to end whole), and die of a signal at once, as the
    parent's handlers are not for it."""
    try:
        os.setpgid(0, 0)
    except OSError:
        pass
    _leader[0] = True
    _groups.clear()
    _temporaries.clear()
    for sig in SIGNALS:
        if signal.getsignal(sig) != signal.SIG_IGN:
            signal.signal(sig, signal.SIG_DFL)
    _deferring[0] = 0
    if _pending:                # came between the fork and here
        os._exit(128 + _pending[0])


def spawn(args, own_group=True, **kw):
    """subprocess.Popen(args, **kw), leading a group of its own (unless this
    is a ripping child, whose group it joins, or `own_group` is False: a
    child that reads the terminal must stay in its foreground group), and
    recorded until waited for (wait())."""
    if own_group and not _leader[0]:
        kw["process_group"] = 0
    with defer():
        p = subprocess.Popen(args, **kw)
        track(p.pid, p)
    return p


def run(args, timeout=None, capture_output=False, own_group=True, **kw):
    """subprocess.run with spawn(): a timeout or an interruption ends the
    child's whole group, not only the child."""
    if capture_output:
        kw["stdout"] = kw["stderr"] = subprocess.PIPE
    p = spawn(args, own_group, **kw)
    try:
        out, err = p.communicate(timeout=timeout)
    except BaseException:
        end(p)
        raise
    untrack(p.pid)
    return subprocess.CompletedProcess(args, p.returncode, out, err)


def end(p):
    """End child `p` (a Popen from spawn()) and its group, and wait for it."""
    if p.returncode is None:
        if p.pid in _groups and not _leader[0]:
            kill_group(p.pid)
        else:
            p.kill()
        p.wait()
    untrack(p.pid)


class temporary_folder:
    """A new folder (like tempfile.TemporaryDirectory), made when a path in
    it is first asked for (most compiles of a build need none: no folder,
    and no import of tempfile), removed on leaving and on a signal.

        with temporary_folder("ripcc-") as tmp: os.path.join(tmp, "a.i") ...
    """

    def __init__(self, prefix):
        self.prefix = prefix
        self.path = None            # the folder, once made

    def __enter__(self):
        return self

    def __fspath__(self):
        if self.path is None:
            import tempfile
            with defer():
                self.path = tempfile.mkdtemp(prefix=self.prefix)
                _temporaries[self.path] = True
        return self.path

    __str__ = __fspath__

    def __exit__(self, *exc):
        if self.path is not None:
            _remove(self.path, True)
            _temporaries.pop(self.path, None)


def temporary_file(path):
    """Record `path`, a file about to be made: a signal removes it (made
    under defer(), so that nothing comes between)."""
    _temporaries[path] = False


def forget_file(path):
    """`path` is no temporary any more (renamed into place, or removed)."""
    _temporaries.pop(path, None)


def _remove(path, folder):
    try:
        if folder:
            import shutil
            shutil.rmtree(path, ignore_errors=True)
        else:
            os.unlink(path)
    except OSError:
        pass


# -- what a preprocessor reads that has no end --------------------------------

# open(2)-like system calls, by number, and which argument holds the path:
# a process blocked in one (opening a FIFO with no writer) shows it in
# /proc/PID/syscall.
_OPENS = {"x86_64": {2: 0, 257: 1, 437: 1}, "aarch64": {56: 1, 437: 1}}.get(
    os.uname().machine, {})


def held_special_file(pid):
    """(path, kind) of a FIFO or device that process `pid` or one of its
    descendants has open or is blocked opening ("FIFO", "character device",
    "block device"), else None.  Linux only (/proc); /dev/null, terminals
    (a compiler wrapper may hold one) and unnamed pipes do not count."""
    for p in [pid] + _descendants(pid):
        fd_dir = "/proc/%d/fd" % p
        try:
            fds = [int(fd) for fd in os.listdir(fd_dir)]
        except (OSError, ValueError):
            continue
        names = []
        for fd in fds:
            if fd > 2:          # its standard streams are ours (pipes, a memory file)
                try:
                    names.append(os.readlink("%s/%d" % (fd_dir, fd)))
                except OSError:
                    pass
        opening = _opening(p)
        if opening:
            names.append(opening)
        for name in names:
            kind = special_kind(name) if name.startswith("/") and not \
                name.startswith(_TERMINALS) else None   # not pipe:[N] either
            if kind:
                return name, kind
    return None


_TERMINALS = ("/dev/tty", "/dev/pts/", "/dev/console")


def special_kind(path):
    """"FIFO", "character device" or "block device" if `path` is one, else
    None.  /dev/null counts as a file: it reads empty at once."""
    try:
        st = os.stat(path)
        if stat.S_ISCHR(st.st_mode) and st.st_rdev == os.stat("/dev/null").st_rdev:
            return None
    except (OSError, ValueError):
        return None
    mode = st.st_mode
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    return None


def _descendants(pid):
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            with open("/proc/%d/task/%d/children" % (p, p)) as f:
                kids = [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            continue
        out += kids
        todo += kids
    return out


def _opening(pid):
    """The path process `pid` is blocked opening, or None."""
    try:
        with open("/proc/%d/syscall" % pid) as f:
            fields = f.read().split()
        arg = _OPENS.get(int(fields[0]))
        if arg is None:
            return None
        address = int(fields[1 + arg], 16)
        with open("/proc/%d/mem" % pid, "rb") as mem:
            mem.seek(address)
            path = mem.read(4096).split(b"\0")[0].decode("utf-8", "surrogateescape")
        if not path.startswith("/"):
            path = os.path.join(os.readlink("/proc/%d/cwd" % pid), path)
        return path
    except (OSError, ValueError, IndexError, OverflowError):
        return None
