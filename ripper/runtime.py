"""runtime.py -- where the C runtime is, and its libraries, built on first use.

In a clone, the runtime is runtime/ beside this package and the Makefile
builds each backend's library into build/lib/ (build-san/lib/ under
RIP_SAN=1), again whenever a source is newer than the library.  An
installed wheel carries the runtime's sources inside the package
(ripper/runtime/, put there by setup.py) and builds each library on first
use into a per-user cache, under a name made from the compiler, the flags
and the sources, so a new compiler, RIP_SAN=1 or a new ripper never links
an old library:

    ripcc hello.c   ->  ~/.cache/ripper/<hash>/librip-rip.a (built once)

Both build the same files: a backend's folder of runtime/src, with core/
beside it for rip and ucontext.

A program compiled with -fsanitize=address, undefined or thread links a
runtime built with the same sanitizers (its stack switches and frame pool
told to AddressSanitizer), built on first use like the plain one:

    ripcc -fsanitize=address,undefined x.c  ->  build-san/lib/librip-rip.a
    ripcc -fsanitize=thread x.c             ->  build-san-thread/lib/...
"""

import fcntl
import glob
import os
import subprocess

from . import __version__, children
from .diag import Diagnostic

HERE = os.path.dirname(os.path.abspath(__file__))
_PACKAGED = os.path.join(HERE, "runtime")
CLONE = os.path.dirname(HERE)
IN_CLONE = not os.path.isdir(_PACKAGED)
DIR = os.path.join(CLONE, "runtime") if IN_CLONE else _PACKAGED
INCLUDE = os.path.join(DIR, "include")             # rip.h
FRAME_HEADER = os.path.join(DIR, "src", "rip", "rip_frame.h")
FRAME_HEADER_ALL_ASYNC = os.path.join(DIR, "src", "rip", "rip_frame_all_async.h")  # --all-async's
BACKENDS = ("rip", "ucontext", "threads")
# What the Makefile builds the runtime with (its CFLAGS; SAN_FLAGS under SAN=1);
# launcher/ripcc.c's cached_library hashes the same list: change both.
CFLAGS = ["-std=gnu11", "-O2", "-g", "-Wall", "-Wextra", "-fPIC", "-pthread"]
SAN_FLAGS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all",
             "-fno-omit-frame-pointer"]


_RIP_H = os.path.join(INCLUDE, "rip.h")
_runtime_headers = {}       # path -> whether it is this ripper's rip.h


def is_runtime_header(path):
    """Whether `path` is this ripper's rip.h: the file itself, or a copy
    with the same bytes (make install's, or another clone's of the same
    commit, found first on the user's include path)."""
    if path not in _runtime_headers:
        same = os.path.basename(path) == "rip.h"
        if same and os.path.realpath(path) != os.path.realpath(_RIP_H):
            try:
                with open(path, "rb") as mine, open(_RIP_H, "rb") as ours:
                    same = mine.read() == ours.read()
            except OSError:
                same = False
        _runtime_headers[path] = same
    return _runtime_headers[path]


def sanitized():
    """RIP_SAN=1: build against the sanitizer runtime (make SAN=1)."""
    return os.environ.get("RIP_SAN", "") not in ("", "0")


# The sanitizers the runtime has a build for: a program compiled with one
# links a runtime compiled with it (ASan must see the runtime's stack
# switches; the others check the runtime's code too).
RUNTIME_SANITIZERS = ("address", "thread", "undefined")


def sanitizers_of(args):
    """The RUNTIME_SANITIZERS cc's arguments `args` turn on, sorted: their
    -fsanitize= and -fno-sanitize= lists read left to right, as cc does.

        sanitizers_of(["-fsanitize=undefined,address"]) == ("address", "undefined")
    """
    on = set()
    for a in args:
        if a.startswith("-fsanitize="):
            on.update(a[len("-fsanitize="):].split(","))
        elif a.startswith("-fno-sanitize="):
            off = a[len("-fno-sanitize="):].split(",")
            on.difference_update(RUNTIME_SANITIZERS if "all" in off else off)
    return tuple(sorted(on & set(RUNTIME_SANITIZERS)))


def variant(sanitize=()):
    """(the build folder's name, the flags the runtime is compiled with) for
    a program compiled with the sanitizers `sanitize` (sanitizers_of's).
    RIP_SAN=1 and address+undefined are make SAN=1's build-san; another
    set has a folder of its own.

        variant(("thread",)) == ("build-san-thread", ["-fsanitize=thread", ...])
    """
    if sanitized() or sanitize == ("address", "undefined"):
        return "build-san", SAN_FLAGS
    if not sanitize:
        return "build", []
    if "thread" in sanitize and "address" in sanitize:
        raise Diagnostic("", 0, 0, "-fsanitize=thread cannot be combined with "
                         "-fsanitize=address")
    return "build-san-" + "-".join(sanitize), \
        ["-fsanitize=" + ",".join(sanitize), "-fno-omit-frame-pointer"]


def sources(backend):
    """(the backend's .c files, the include flags they compile with)."""
    src = os.path.join(DIR, "src")
    gdb_script = "-Wa,-I" + os.path.join(src, "shared")     # its .incbin (shared/gdb_script.h)
    if backend == "threads":
        return sorted(glob.glob(os.path.join(src, "threads", "*.c"))), ["-I", INCLUDE, gdb_script]
    files = glob.glob(os.path.join(src, "core", "*.c")) + \
        glob.glob(os.path.join(src, backend, "*.c"))
    return sorted(files), ["-I", INCLUDE, "-I", os.path.join(src, "core"),
                           "-I", os.path.join(src, "rip"), gdb_script]


def library(backend, compiler, sanitize=()):
    """(the backend's static library, built if missing or older than its
    sources; the flags every program linked with it is compiled with).
    `compiler`: the command words of the C compiler; `sanitize`: the
    sanitizers the program is compiled with (sanitizers_of)."""
    if "thread" in sanitize and backend == "ucontext" and not sanitized():
        raise Diagnostic("", 0, 0, "-fsanitize=thread: the ucontext runtime does not tell "
                         "ThreadSanitizer about its stack switches",
                         hint="use --backend=rip or --backend=threads with -fsanitize=thread")
    folder, flags = variant(sanitize)
    if IN_CLONE:
        lib, flags = _clone_library(backend, folder, flags)
    else:
        lib, flags = _cached_library(backend, compiler, flags)
    if sanitize and not sanitized():
        # the program's own -fsanitize= links what the runtime needs: its
        # other flags (-fsanitize-recover...) stay the user's choice
        flags = ["-fsanitize=" + ",".join(sanitize)]
    return lib, flags


def _clone_library(backend, folder, san_flags):
    build = os.path.join(CLONE, folder)
    lib = os.path.join(build, "lib", "librip-%s.a" % backend)
    flags = os.path.join(build, "lib", "cflags")
    if _stale(lib, backend) or not os.path.exists(flags):
        os.makedirs(os.path.dirname(lib), exist_ok=True)
        with open(os.path.join(build, ".ripcc-lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time (parallel ripcc runs)
            # the runtime is built with the C compiler, never with ripcc: a
            # build running ripcc as CC passes CC=ripcc down in MAKEFLAGS or
            # the environment, and ripcc would wait on this lock for itself
            env = {k: v for k, v in os.environ.items()
                   if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
            # another sanitizer set: make SAN=1's rules, into its own folder
            make = ["SAN=%d" % bool(san_flags)]
            if san_flags and folder != "build-san":
                make += ["BUILD=" + folder, "SAN_FLAGS=" + " ".join(san_flags)]
            r = children.run(["make", "-s", "-C", CLONE] + make +
                             ["CC=" + os.environ.get("RIPCC_CC", "cc"),
                              os.path.relpath(lib, CLONE)], env=env)
            if r.returncode != 0 or not os.path.exists(lib):
                raise Diagnostic("", 0, 0, "cannot build the %s runtime (make -C %s %s %s)"
                                 % (backend, CLONE, " ".join("'%s'" % m if " " in m else m
                                                             for m in make),
                                    os.path.relpath(lib, CLONE)))
    with open(flags) as f:
        return lib, f.read().split()


def _stale(lib, backend):
    """Is `lib` missing, or older than a source or header it is built from?
    (launcher/ripcc.c's library_fresh asks the same: change both.)"""
    try:
        built = os.stat(lib).st_mtime
    except FileNotFoundError:
        return True
    files = sources(backend)[0] + glob.glob(os.path.join(DIR, "src", "*", "*.h")) + \
        glob.glob(os.path.join(DIR, "src", "*", "*.py")) + \
        [os.path.join(INCLUDE, "rip.h"), os.path.join(INCLUDE, "rip_posix.h")]
    return any(os.stat(f).st_mtime > built for f in files)


def cache_root():
    """$XDG_CACHE_HOME/ripper, else ~/.cache/ripper (a relative
    XDG_CACHE_HOME is ignored, as the XDG spec says)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ripper")


def _unusable_cache(folder, error):
    """The one-line message for a cache `folder` that cannot be made or
    written (`error`, an OSError): which folder, why, and the fix.

        _unusable_cache("/f/ripper/ab12", <Not a directory>) ->
        "cannot write the runtime library's cache folder /f/ripper/ab12 (Not a directory;
         it is in $XDG_CACHE_HOME=/f): set XDG_CACHE_HOME to a folder you can write"
    """
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    where = ("$XDG_CACHE_HOME=" + xdg) if os.path.isabs(xdg) else \
        "$HOME/.cache, HOME=" + os.path.expanduser("~")
    return ("cannot write the runtime library's cache folder %s (%s; it is in %s): set "
            "XDG_CACHE_HOME to a folder you can write" % (folder, error.strerror or error, where))


def _cached_library(backend, compiler, flags):
    files, includes = sources(backend)
    import hashlib                  # here: ripper's start-up does not need it (3 ms)
    key = hashlib.sha256()
    cc = _which(compiler[0])
    st = os.stat(cc)
    for part in [__version__, cc, str(st.st_mtime_ns), str(st.st_size)] + \
            compiler + CFLAGS + flags:
        key.update(part.encode() + b"\0")
    # (launcher/ripcc.c's cached_library computes the same key: change both)
    for f in sorted(glob.glob(os.path.join(DIR, "src", "*", "*.[ch]")) +
                    glob.glob(os.path.join(DIR, "src", "*", "*.py"))) + \
            [os.path.join(INCLUDE, "rip.h"), os.path.join(INCLUDE, "rip_posix.h")]:
        with open(f, "rb") as fh:
            key.update(os.path.relpath(f, DIR).encode() + b"\0" + fh.read())
    folder = os.path.join(cache_root(), key.hexdigest()[:20])
    lib = os.path.join(folder, "librip-%s.a" % backend)
    if not os.path.exists(lib):
        # a cache that cannot be written is an error, not a build of the
        # runtime at every compile: the message says where and how to fix it
        try:
            os.makedirs(folder, exist_ok=True)
            lock = open(os.path.join(folder, ".lock"), "w")
        except OSError as e:
            raise Diagnostic("", 0, 0, _unusable_cache(folder, e)) from None
        with lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time (parallel ripcc runs)
            if not os.path.exists(lib):
                _build(lib, files, compiler + CFLAGS + flags + includes)
    return lib, flags


def _build(lib, files, cc):
    """Compile `files` side by side with command `cc`, and archive them into
    `lib` (whole, or not at all)."""
    objects = [lib + ".%d.o" % i for i in range(len(files))]
    for o in objects + [lib + ".tmp"]:
        children.temporary_file(o)      # a signal removes them (children.py)
    procs = [children.spawn(cc + ["-c", f, "-o", o], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE) for f, o in zip(files, objects)]
    failed = []
    for p, f in zip(procs, files):
        _, err = p.communicate()
        children.untrack(p.pid)
        if p.returncode:
            failed.append("%s: %s" % (os.path.basename(f),
                                      err.decode("utf-8", "replace").strip()[-2000:]))
    try:
        if failed:
            raise Diagnostic("", 0, 0, "cannot build the runtime library %s with %s:\n%s"
                             % (os.path.basename(lib), " ".join(cc[:1]), "\n".join(failed)))
        tmp = lib + ".tmp"
        r = children.run(["ar", "rcs", tmp] + objects, capture_output=True)
        if r.returncode:
            raise Diagnostic("", 0, 0, "cannot archive the runtime library (ar): %s"
                             % r.stderr.decode("utf-8", "replace").strip())
        os.replace(tmp, lib)
    finally:
        for o in objects + [lib + ".tmp"]:
            if os.path.exists(o):
                os.unlink(o)
            children.forget_file(o)


def which(program):
    """The path of `program` as the shell finds it on $PATH, or None
    (shutil.which's answer; shutil's import costs every ripper start 2 ms)."""
    def runnable(path):
        return os.path.isfile(path) and os.access(path, os.X_OK)
    if os.sep in program:
        return program if runnable(program) else None
    for d in os.environ.get("PATH", os.defpath).split(os.pathsep):
        path = os.path.join(d or ".", program)
        if runnable(path):
            return path
    return None


def _which(program):
    path = which(program)
    if path is None:
        raise Diagnostic("", 0, 0, "no C compiler '%s' on PATH" % program,
                         hint="install gcc, or set RIPCC_CC to your compiler")
    return path
