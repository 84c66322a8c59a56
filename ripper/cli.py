"""cli.py -- the `ripper` and `ripcc` commands.

    ripper prog.c -o prog.rip.c          rip one file (exit 0 / 1 input error / 2 usage)
    ripcc --backend=rip prog.c -o prog   rip (for the rip backend), compile, link

ripper never leaves a partial output file: it writes a temporary file
beside the output and renames it into place only on success; a signal
removes it (children.py).  An output that is one of the inputs is refused.
"""

import fcntl
import gc
import os
import shlex
import signal
import stat
import subprocess
import sys
import threading
import time
# json and tempfile are imported where they are used: ripper's start-up is
# paid by every file of a build, and only ripcc and -p need them.

from . import STAGES, __version__, blocking, children
from .diag import CompilerRejects, Diagnostic, report
from . import runtime
from .preprocess import compiler, preprocess_if, start_preprocess
from .runtime import sanitized  # noqa: F401 (tests and fuzz scripts ask cli)
# The passes after preprocessing (parse, analysis, lower, stages) are
# imported by _rip while the compiler preprocesses: loading them is a
# good part of ripper's start-up, which every file of a build pays.

BACKENDS = runtime.BACKENDS
PATH_FLAGS = ("-I", "-isystem", "-iquote", "-idirafter", "-include", "-imacros", "--sysroot",
              "-isysroot")
# Flags that take their value as the next argument when written apart.
VALUE_FLAGS = PATH_FLAGS + ("-D", "-U", "-o", "-MF", "-MT", "-MQ", "-x", "-Xlinker", "-L",
                            "-l", "-Xpreprocessor", "-Xassembler", "-arch", "-target")
# Flags of the compile or link step that the preprocessor must not see.
NOT_PREPROCESSING = ("-c", "-S", "-E", "-o", "-MD", "-MMD", "-M", "-MM", "-MF", "-MT", "-MQ",
                     "-MP", "-MG", "-shared", "-static", "-rdynamic", "-pie", "-no-pie", "-s",
                     "-Xlinker", "-L", "-l", "-x", "-save-temps", "-v", "-###",
                     "-fsyntax-only")
# Flags that shape the language libclang must parse.
DIALECT_PREFIXES = ("-std=", "-ansi", "-m32", "-m64", "-mx32", "-funsigned-char",
                    "-fsigned-char", "-fms-extensions", "-fgnu89-inline",
                    "-Wwrite-strings", "-Wno-write-strings")   # a literal's type: const char[N]


def compile_flags(args, directory=None):
    """The compiler flags among `args` (inputs and outputs, dependency-file
    and link flags left out), values written apart kept with their flag;
    relative paths resolved from `directory`."""
    flags = []
    it = iter(args)
    for a in it:
        if not a.startswith("-") or a == "-":
            continue                # an input
        flag = next((f for f in VALUE_FLAGS if a == f or (a.startswith(f) and f not in
                                                          ("-o", "-x", "-l", "-L"))), None)
        if flag is None and (a.startswith(("-l", "-L", "-Wl,", "-o")) or
                             a in NOT_PREPROCESSING):
            continue
        if flag is None:
            flags.append(a)
            continue
        value = a[len(flag):] or next(it, "")
        if flag in NOT_PREPROCESSING or flag in ("-l", "-L"):
            continue
        if flag in PATH_FLAGS and directory is not None:
            value = os.path.join(directory, value)
        flags += [flag, value]
    return flags


# Flags only the preprocessor reads: a ripped file is already preprocessed.
PREPROCESSOR_ONLY = ("-I", "-isystem", "-iquote", "-idirafter", "-include", "-imacros", "-D",
                     "-U", "-Xpreprocessor")


def without_preprocessor_flags(args):
    """`args` less the flags (and their values) only the preprocessor reads,
    for compiling ripped text, which is preprocessed already."""
    kept = []
    it = iter(args)
    for a in it:
        flag = next((f for f in PREPROCESSOR_ONLY if a.startswith(f)), None)
        if flag is None or (flag == "-I" and a == "-I-"):
            kept.append(a)
        elif a == flag:
            next(it, None)          # the value written apart
    return kept


def dialect_flags(flags):
    """The flags libclang needs to read the language as the compiler does."""
    return [f for f in flags if f.startswith(DIALECT_PREFIXES)]


def compiler_judges(d, path, source, flags, seconds=None):
    """Diagnostic `d`, raised while ripping `source` (the bytes of `path`,
    '<stdin>' for standard input), as the user is to see it.  When it is
    libclang's rejection of the code (a syntax error, an undeclared name,
    or C libclang lacks), the compiler that builds the file ($RIPCC_CC,
    default cc, the one that preprocessed it) is asked too, with the same
    `flags` (-fsyntax-only): if it rejects the code, its own errors are
    what the user sees, as it prints them, and CompilerRejects is raised
    (the command exits with its status); if it accepts the code, `d` gets
    the note that it is C ripper cannot read yet.

        compiler_judges(<t.c:3:15: error: expected expression>, "t.c", b"...", ["-O2"])
        -> cc's "t.c:3:15: error: expected expression before ';' token" on
           stderr, then CompilerRejects(1)
    """
    if not d.libclang_rejects:
        return d
    note = ("libclang, which ripper parses with, rejects this; if your compiler accepts it, "
            "it is C ripper cannot read yet")     # the compiler could not be asked
    try:
        cc = compiler()
        stdin = path in ("-", "<stdin>") or not os.path.isfile(path)
        # as the file is compiled without ripping (ucontext), its flags and
        # rip.h's folder: no __RIPPER__, whose annotate attribute gcc warns about
        args = cc + without_verbose(flags) + ["-fsyntax-only", "-I", runtime.INCLUDE,
                                              "-x", "c", "-" if stdin else path]
        p = children.spawn(args, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                           stdout=sys.stderr.fileno())
        try:
            p.communicate(source if stdin else None, timeout=time_limit(source, seconds))
        finally:
            children.end(p)
        if p.returncode:
            raise CompilerRejects(p.returncode if p.returncode > 0 else 1)
        note = ("%s accepts this code, but libclang, which ripper parses with, rejects it: "
                "it is C ripper cannot read yet" % " ".join(cc))
    except (Diagnostic, OSError, subprocess.TimeoutExpired):
        pass
    # one note, on the first error that has none (a GNU extension's says more)
    first = next((e for e in [d] + d.others if e.libclang_rejects and not e.hint), None)
    if first is not None:
        first.hint = note
    return d


def without_verbose(flags):
    """`flags` less what makes the compiler say more than its diagnostics
    or write files of its own (-v, -###, -save-temps)."""
    return [f for f in flags if f not in ("-v", "-###") and not f.startswith("-save-temps")]


# posix=TLS_ONLY (ripper --posix-tls-only): of POSIX mode, only the thread-locals
TLS_ONLY = "tls-only"


def rip_source(path, source, flags=(), all_async=False, stats=None, parse_alarm=None,
               notes=None, depend=(), blocking_mode="warn", warnings=None, posix=False,
               also_async=None, files=None, preprocessed=False):
    """The ripped text (bytes) of `source`, or raise Diagnostic.  `flags`:
    the compiler flags it is built with; `stats`, a list, receives a
    FrameStats per async function, `notes` lines to tell the user
    (--all-async: what stayed plain) and `warnings` Diagnostics (blocking.py,
    whose `blocking_mode` "warn", "error" or "off" says what it does);
    `parse_alarm`: see parse; `posix`: POSIX mode (--posix, analysis.py), or
    TLS_ONLY: only its thread-locals per task (--posix-tls-only, lower.py);
    `also_async`: {function: object} async in other objects (analysis.py);
    `files`, a list, receives the user's files the preprocessor read (the
    input and its headers, not system headers nor the runtime's);
    `preprocessed`: `source` is preprocessed C (a .i), not preprocessed
    again (see start_preprocess)."""
    gc.disable()                # 10^5 tree nodes: the collector would walk them again and again
    frozen = gc.get_freeze_count()
    try:
        return _rip(path, source, flags, all_async, stats, parse_alarm, notes, depend,
                    blocking_mode, warnings, posix, also_async, files, preprocessed)
    finally:
        if not frozen:
            gc.unfreeze()       # _rip's tree: collectable again, once nothing holds it
        gc.enable()


def prefix_maps(flags):
    """(old, new) of each -ffile-prefix-map=OLD=NEW and -fmacro-prefix-map
    in `flags`, in order: gcc names a file by them in __FILE__, as the
    dump's tables do (frame.py), so that two builds in other folders give
    the same object.

        prefix_maps(["-O2", "-ffile-prefix-map=/home/u/src=."]) -> [("/home/u/src", ".")]
    """
    out = []
    for f in flags:
        for option in ("-ffile-prefix-map=", "-fmacro-prefix-map="):
            if f.startswith(option) and "=" in f[len(option):]:
                out.append(tuple(f[len(option):].split("=", 1)))
    return out


def _rip(path, source, flags, all_async, stats, parse_alarm, notes, depend, blocking_mode,
         warnings, posix=False, also_async=None, files=None, preprocessed=False):
    preprocessing = start_preprocess(path, source, without_preprocessor_flags(flags)
                                     if preprocessed else flags, timeout=parse_alarm,
                                     depend=() if preprocessed else depend,
                                     frame_abi=posix != TLS_ONLY,  # ripped frames need rip.h's
                                     preprocessed=preprocessed, all_async=all_async)
    from .analysis import Analysis      # while the compiler runs (see the imports)
    from .lower import lower, lower_thread_locals
    from .parse import parse
    unit = parse(preprocessing, dialect_flags(flags), parse_alarm)
    unit.prefix_maps = prefix_maps(flags)
    gc.freeze()                 # the tree lives to the end: collections skip it (lower.py)
    if files is not None:
        files.extend(user_files(unit.lines))
    if posix == TLS_ONLY:       # ripcc --posix on ucontext: nothing ripped, nothing checked
        rw = lower_thread_locals(unit)
    else:
        analysis = Analysis(unit, all_async, posix, also_async)
        blocked = blocking.check(unit, analysis, blocking_mode)
        try:
            rw = lower(unit, analysis, all_async, stats, keep=False)
        except Diagnostic as d:
            if not blocked:
                raise
            raise _in_order(blocked + [d] + d.others)   # errors and warnings, in the file's order
        if blocking_mode == "error" and blocked:
            raise _in_order(blocked)
        if warnings is not None:
            warnings.extend(blocked)
        if all_async and notes is not None:
            notes.extend(all_async_report(path, analysis))
    # before the output is put together: libclang's unit and what lowering
    # left behind go (the tree stays, frozen: a full collection of its
    # 10^6 nodes would cost more time than its memory is worth)
    rw.lowering = None
    unit.release()
    gc.collect()
    _give_back_freed_memory()
    prologue = ("/* Ripped by ripper %s from %s: preprocessed C; edit the original, not "
                "this file. */\n" % (__version__, os.path.basename(path)))
    return rw.render(prologue)


def user_files(lines):
    """The files a LineMap's text came from that are the user's: not the
    compiler's (<built-in>), a system header or the runtime's headers.

        user_files(<main.c including stdio.h and server.h>) -> ["main.c", "server.h"]"""
    out, seen = [], set()
    runtime_dir = os.path.realpath(runtime.DIR) + os.sep
    for _, name, _, flags in lines.marks:
        if name in seen or "3" in flags.split():
            continue
        seen.add(name)
        if not name.startswith("<") and not os.path.realpath(name).startswith(runtime_dir):
            out.append(name)
    return out


def _forked(work):
    """A child process, leading a process group of its own, that runs
    work() and sends what it returns down a pipe, pickled (exit status 3
    if it raised): (its pid, the pipe's read end).  A signal to this
    process waits until the child is recorded (children.track).

        pid, rfd = _forked(lambda: 42)   # os.fdopen(rfd, "rb").read() unpickles to 42"""
    import pickle               # here: a compile with no child needs none (2 ms)
    reap_children()
    rfd, wfd = os.pipe()
    with children.defer():
        pid = os.fork()
        if pid == 0:
            children.lead_own_group()
            os.close(rfd)
            status = 0
            try:
                result = work()
                with os.fdopen(wfd, "wb") as f:
                    pickle.dump(result, f)
            except BaseException:
                status = 3
            os._exit(status)
        try:
            os.setpgid(pid, pid)    # as the child does: whichever comes first
        except OSError:
            pass
        children.track(pid)
    os.close(wfd)
    return pid, rfd


def check_blocking_reporting(path, source, flags=(), blocking_mode="warn", posix=False,
                             seconds=None):
    """check_blocking, its parse in a child process (libclang may crash or
    hang on a file the compiler takes: then no warning, and the compiler
    goes on).  The preprocessor runs from here: a file with no async
    function (most of a build) costs no child.

        check_blocking_reporting("t.c", text, ["-O2"]) -> [Diagnostic...]
    """
    if blocking_mode == "off":
        return []
    if os.environ.get("RIPPER_DEBUG"):
        return check_blocking(path, source, flags, blocking_mode, posix=posix)
    limit = time_limit(source, seconds)
    started = time.monotonic()
    preprocessed = _with_async_functions(path, source, flags, limit)
    if preprocessed is None:
        return []

    def work():
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        if limit:                   # what is left of the limit preprocessing began
            signal.alarm(max(1, int(limit - (time.monotonic() - started)) + 1))
        return [d.fields() for d in _blocking_calls(preprocessed, flags, blocking_mode, limit,
                                                    posix)]
    pid, rfd = _forked(work)
    try:
        with os.fdopen(rfd, "rb") as f:
            data = f.read()
    finally:
        children.kill_group(pid)
        os.waitpid(pid, 0)
        children.untrack(pid)
    try:
        import pickle
        return [Diagnostic.of_fields(fields) for fields in pickle.loads(data)]
    except Exception:               # the child failed: no check, the build goes on
        return []


def check_blocking(path, source, flags=(), blocking_mode="warn", parse_alarm=None, posix=False):
    """-Wblocking alone, for a build that is not ripped (ripcc
    --backend=ucontext): the plain blocking calls in the async functions of
    `source` (as Diagnostics, warnings or errors per `blocking_mode`),
    without transforming anything.  A file that never names RIP_ASYNC
    (rip.h not included) has no async function: it is not even parsed.
    Anything libclang cannot read is left for the compiler to report.

        check_blocking("t.c", b'#include "rip.h"\nRIP_ASYNC void f(void) { sleep(1); }')
        -> [<t.c:2:26: warning: 'sleep' blocks the whole scheduler ... [-Wblocking]>]
    """
    if blocking_mode == "off":
        return []
    preprocessed = _with_async_functions(path, source, flags, parse_alarm)
    if preprocessed is None:
        return []
    return _blocking_calls(preprocessed, flags, blocking_mode, parse_alarm, posix)


def _with_async_functions(path, source, flags, timeout):
    """`source` preprocessed, if it has an async function; else None (and
    None if the preprocessor fails: the compiler says why)."""
    try:
        # one preprocessor run to see if there is an async function at all
        return preprocess_if(path, source, flags, b'annotate("rip_async")', timeout=timeout)
    except Diagnostic:
        return None


def _blocking_calls(preprocessed, flags, blocking_mode, parse_alarm, posix):
    """check_blocking's diagnostics of a Preprocessed text."""
    try:
        from .analysis import Analysis
        from .parse import parse
        unit = parse(preprocessed, dialect_flags(flags), parse_alarm)
        return blocking.check(unit, Analysis(unit, posix=posix), blocking_mode)
    except Diagnostic:
        return []                   # the compiler says what is wrong with the file


def _in_order(diagnostics):
    """One Diagnostic that reports all of `diagnostics`, by place in each file."""
    if len(diagnostics) > 1:
        diagnostics = sorted(diagnostics, key=lambda d: (d.path, d.line, d.col))
    first, *others = diagnostics
    return first.with_others(others)


def _give_back_freed_memory():
    """Return the C heap's free pages to the system (glibc's malloc_trim):
    libclang's freed unit stays in the process otherwise, counted in its
    peak when the output is put together (SQLite: some 90 MB)."""
    try:
        import ctypes           # here, in the ripping child: not at ripcc's start
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass                        # not glibc: the memory is reused, later


def all_async_report(path, analysis):
    """--all-async: how many functions were ripped, and why others were not."""
    defined = analysis.defined
    ripped = [n for n in defined if n in analysis.names]
    lines = ["%s: --all-async: %d of %d functions ripped" % (path, len(ripped), len(defined))]
    for name, why in sorted(analysis.plain.items()):
        lines.append("%s: left plain: %s: %s" % (path, name, why))
    return lines


def write_atomically(path, data):
    """Write `data` to `path` whole, or not at all.  A regular file (or a
    new one) is replaced by a rename, keeping its mode; a device or FIFO
    (/dev/null, a pipe) is written to as it is, never replaced; a symlink
    is followed."""
    if path == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    path = os.path.realpath(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(path, "wb") as f:
            f.write(data)
        return
    if st is not None:
        mode = stat.S_IMODE(st.st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = new_file_beside(path)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    finally:
        children.forget_file(tmp)


def new_file_beside(path):
    """(fd, name) of a new file, only ours, in the folder of `path`, which
    a signal removes (children.py)."""
    while True:
        tmp = os.path.join(os.path.dirname(path), ".ripper-%d-%s" % (os.getpid(),
                                                                     os.urandom(6).hex()))
        with children.defer():
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
            except FileExistsError:
                continue
            children.temporary_file(tmp)
            return fd, tmp


def compile_command(build_dir, source):
    """What BUILD_DIR/compile_commands.json says of compiling `source`:
    (the compiler flags, the ripping options).  A command run through
    ripcc (CMake's CMAKE_C_FLAGS with ripcc's own options) is read as
    ripcc reads it: --all-async, --posix, --timeout and --max-frame are options of the
    rip, -Wblocking and the like stay among the flags (ripper_main takes
    them out), --backend and the rest of ripcc's own are dropped (cc
    knows none of them; ripper rips for the rip backend).

        command "ripcc --backend=rip --all-async -DN=1 -c a.c"
        -> (["-DN=1"], {"all_async": True, "posix": False, "seconds": None,
                        "max_frame": None})
    """
    import json
    from .ripcc import RIPCC_OPTIONS, Command, UsageError
    db_path = os.path.join(build_dir, "compile_commands.json")
    try:
        with open(db_path) as f:
            db = json.load(f)
    except (OSError, ValueError) as e:
        raise Diagnostic(db_path, 0, 0, "cannot read the compilation database: %s" % e)
    want = os.path.realpath(source)
    for entry in db:
        directory = entry.get("directory", ".")
        if os.path.realpath(os.path.join(directory, entry.get("file", ""))) != want:
            continue
        args = entry.get("arguments") or shlex.split(entry.get("command", ""))
        try:
            cmd = Command(args[1:])
        except UsageError as e:
            raise Diagnostic(db_path, 0, 0, "the command for %s: %s" % (source, e))
        cc_args = [a for a in cmd.args if a.split("=")[0] not in RIPCC_OPTIONS]
        how = [f for f in [blocking.flag_of(cmd.blocking)] if f]
        try:
            seconds = None if cmd.timeout is None else time_limit_option(cmd.timeout)
            budget = None if cmd.max_frame is None else frame_budget(cmd.max_frame)
        except ValueError as e:
            raise Diagnostic(db_path, 0, 0, "the command for %s: %s" % (source, e))
        return compile_flags(cc_args, directory) + how, {
            "all_async": cmd.all_async, "posix": cmd.posix, "seconds": seconds,
            "max_frame": budget}
    raise Diagnostic(db_path, 0, 0, "no entry for %s" % source)


# ripper's own options: those taking a value, and the rest.
RIPPER_VALUE_OPTIONS = ("-o", "-I", "-D", "-p", "--stage", "--timeout", "--also-async",
                        "--max-frame", "--stats-json")
RIPPER_OPTIONS = ("--all-async", "--posix", "--posix-tls-only", "--stats", "--version", "-h", "--help")


def split_compiler_flags(argv):
    """(ripper's own arguments, the compiler's flags): any other flag is the
    compiler's (-std=c99, -U X, -include f.h, -isystem d, -W..., -f...,
    -O2), with its value when written apart; everything after -- too."""
    ours, cc = [], []
    it = iter(argv)
    for a in it:
        if a == "--":
            cc += list(it)
        elif a in RIPPER_VALUE_OPTIONS:
            ours.append(a)
            value = next(it, None)
            if value is not None:
                ours.append(value)
        elif a in RIPPER_OPTIONS or \
                a.startswith(("--stage=", "--timeout=", "--also-async=", "--max-frame=",
                              "--stats-json=", "-I", "-D")) or \
                (a.startswith("-o") and len(a) > 2) or a == "-" or not a.startswith("-"):
            ours.append(a)
        else:
            cc.append(a)
            if a in VALUE_FLAGS:
                value = next(it, None)
                if value is not None:
                    cc.append(value)
    return ours, cc


def ripper_parser():
    """ripper's argument parser: every option ripper takes, with its help
    line (the blocking-warning flags too, shown in --help; they reach
    blocking.mode with the compiler's flags, not the parser).

        ripper_parser().parse_args(["t.c", "-o", "t.rip.c"]).output -> "t.rip.c"
    """
    import argparse             # here: ripcc never needs it (2 ms of every compile)
    ap = argparse.ArgumentParser(
        prog="ripper",
        description="Rip a C file: rewrite every function that may block into a "
                    "continuation-passing state machine for the rip runtime.",
        usage="ripper [options] [compiler flags] input.c [-o out.c]",
        epilog="Any other flag is the compiler's (-std=c99, -U X, -include f.h, -isystem "
               "DIR, -W..., -f..., -O2: ripper preprocesses with them, so it sees what "
               "the compiler sees), and so is everything after --.  Exit status: 0 "
               "ripped, 1 the input has errors (a FIFO or device as the input or an "
               "#include is one; code the compiler rejects too gets its own errors, "
               "as it prints them), 2 bad usage (an output that is the input is).  On "
               "SIGINT, SIGTERM or SIGHUP ripper ends its children, removes its "
               "temporary files and dies of the signal (the shell says 130, 143, 129).  "
               "Environment: RIPPER_TIMEOUT, the time limit when --timeout is not "
               "given; RIPCC_CC, the compiler that preprocesses (default cc).  See "
               "ripper(1).")
    ap.add_argument("input", help="the C file to rip, or - for standard input")
    ap.add_argument("-o", dest="output", default="-",
                    help="where to write the ripped C (default: - for standard output)")
    ap.add_argument("-I", dest="includes", action="append", default=[], metavar="DIR",
                    help="add DIR to the include path")
    ap.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                    help="define a macro")
    ap.add_argument("-p", dest="build_dir", metavar="BUILD_DIR",
                    help="take flags from BUILD_DIR/compile_commands.json")
    ap.add_argument("--all-async", action="store_true",
                    help="testing mode: every function defined in the input is async and "
                         "yields once on entry, and main runs as the first task; any valid "
                         "C program must behave exactly as before")
    ap.add_argument("--posix", action="store_true",
                    help="POSIX mode (in progress): the program's blocking calls of the C "
                         "library (read, write, readv, writev, recv, send, recvfrom, sendto, "
                         "recvmsg, sendmsg, accept, accept4, connect, poll, select, "
                         "epoll_wait, sleep, usleep, nanosleep, and stdio on sockets, pipes "
                         "and terminals: fgets, getline, fread, fscanf, fwrite, printf, fflush, "
                         "fclose...) suspend only the calling "
                         "task, each with its system call's contract, and main runs as the "
                         "first task; the rest of its blocking calls are -Wblocking warnings")
    ap.add_argument("--posix-tls-only", action="store_true",
                    help="used by ripcc --posix on the ucontext backend, whose tasks would "
                         "share their OS thread's thread-locals: of --posix, only give each "
                         "task its own copy of every file-scope __thread (_Thread_local) "
                         "variable; no function is ripped, the rest is the preprocessed text")
    ap.add_argument("--also-async", action="append", default=[], metavar="NAME[,NAME...]",
                    help="treat these functions, declared in the input and defined in "
                         "another file, as async, as if their declarations were marked "
                         "RIP_ASYNC (ripcc's link uses it under --posix)")
    ap.add_argument("--stage", choices=STAGES,
                    help="stop after this pass and write what it made: the preprocessed "
                         "text, the tree, which functions are async and why, each async "
                         "function normalized, what each keeps in its frame, or the ripped "
                         "file (lower, the default)")
    ap.add_argument("--stats", action="store_true",
                    help="print, per async function, its frame size, suspension points, "
                         "variables in the frame and locals left as C locals, and with "
                         "--all-async how many functions were ripped and why any stayed "
                         "plain (on stderr)")
    ap.add_argument("--stats-json", metavar="FILE",
                    help="write what --stats prints, as JSON, to FILE (- for standard "
                         "output when -o names a file)")
    ap.add_argument("--max-frame", metavar="N", type=_frame_budget_argument,
                    help="fail (exit 1, no output written) when an async function's frame "
                         "is more than N bytes, naming what fills it")
    ap.add_argument("--timeout", metavar="SECONDS",
                    help="the time preprocessing and parsing the input may take before "
                         "ripper gives up on it (exit 1), 0 for no limit; default: "
                         "$RIPPER_TIMEOUT, else %d s plus 1 s per %d KB of input"
                         % (PARSE_SECONDS, BYTES_PER_SECOND // 1000))
    ap.add_argument("--version", action="version", version="ripper " + __version__)
    # split_compiler_flags hands these to blocking.mode, never to the parser:
    # here they are only listed, for --help
    warn = ap.add_argument_group("blocking-call warnings (ripper's own: never passed to "
                                 "the compiler; the last one wins)")
    for flag, meaning in BLOCKING_FLAG_HELP:
        warn.add_argument(flag, action="store_true", dest=argparse.SUPPRESS, help=meaning)
    return ap


# What each of blocking.FLAGS (and -w) does, for --help.
BLOCKING_FLAG_HELP = (
    ("-Wblocking", "warn of a plain blocking call (read, sleep, waitpid, fgets...) in an "
                   "async function: the default"),
    ("-Wno-blocking", "say nothing of them"),
    ("-Werror=blocking", "make them errors: exit 1, no output written"),
    ("-Wno-error=blocking", "make them warnings again (-Werror alone leaves them warnings)"),
    ("-w", "the compiler's: silences these warnings too"),
)


def ripper_main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    argv, clang_args = split_compiler_flags(argv)
    clang_args = compile_flags(clang_args)      # what preprocessing takes of them
    ap = ripper_parser()
    args = ap.parse_args(argv)
    if args.posix_tls_only and (args.posix or args.all_async or args.also_async or args.stage):
        ap.error("--posix-tls-only rips nothing: it takes no --posix, --all-async, "
                 "--also-async or --stage")
    try:
        seconds = time_limit_option(args.timeout)
    except ValueError as e:
        ap.error(str(e))

    if args.input != "-" and args.output != "-" and same_file(args.input, args.output):
        print("ripper: error: input file '%s' is the same as output file" % args.input,
              file=sys.stderr)
        return 2
    if args.stats_json is not None:     # what it names must be a third file
        if args.stats_json == "-" and args.output == "-":
            ap.error("--stats-json=- writes standard output, where -o - puts the ripped text")
        for other, what in ((args.input, "input file"), (args.output, "output file")):
            if args.stats_json != "-" and other != "-" and (
                    os.path.abspath(args.stats_json) == os.path.abspath(other) or
                    same_file(args.stats_json, other)):
                print("ripper: error: --stats-json file '%s' is the same as the %s"
                      % (args.stats_json, what), file=sys.stderr)
                return 2
    path = "<stdin>" if args.input == "-" else args.input
    kind = None if args.input == "-" else special_kind(args.input)
    if kind:
        print("ripper: error: '%s' is a %s, not a file: ripper reads a file whole (give "
              "it on standard input, as -, to rip what it holds)" % (args.input, kind),
              file=sys.stderr)
        return 1
    try:
        if args.input == "-":
            source = sys.stdin.buffer.read()
        else:
            with open(args.input, "rb") as f:
                source = f.read()
    except OSError as e:
        print("ripper: error: cannot read %s: %s" % (args.input, e.strerror), file=sys.stderr)
        return 1
    flags = ["-I" + d for d in args.includes] + ["-D" + d for d in args.defines]
    try:
        if args.build_dir:
            db_flags, db_options = compile_command(args.build_dir, args.input)
            flags = db_flags + flags
            args.all_async = args.all_async or db_options["all_async"]
            args.posix = args.posix or db_options["posix"]
            if args.timeout is None and db_options["seconds"] is not None:
                seconds = db_options["seconds"]
            if args.max_frame is None:
                args.max_frame = db_options["max_frame"]
        # -Werror=blocking and the like are ripper's: the compiler would fail on them
        how = blocking.mode(flags + clang_args)
        flags, clang_args = blocking.without_flags(flags), blocking.without_flags(clang_args)
        if args.stage and args.stage != "lower":
            flags += clang_args
            from . import stages
            try:
                out = stages.run(args.stage, path, source, flags, dialect_flags(flags),
                                 args.all_async, args.posix)
            except Diagnostic as d:
                raise compiler_judges(d, path, source, flags, seconds)
            write_atomically(args.output, out)
            return 0
        stats, notes, warnings = [], [], []
        also = {name: "another file" for names in args.also_async
                for name in names.split(",") if name}
        out = rip_source_reporting(path, source, flags + clang_args, args.all_async, stats,
                                   notes, seconds=seconds, blocking_mode=how, warnings=warnings,
                                   posix=TLS_ONLY if args.posix_tls_only else args.posix,
                                   also_async=also)
        over = over_budget(stats, args.max_frame)
        if over:
            report(warnings + over, flags + clang_args)
            return 1
        report(warnings, flags + clang_args, empty_too=True)   # (JSON: "[]", as cc1 prints)
        if args.stats_json:             # first: if it cannot be written, no output is
            try:
                write_atomically(args.stats_json, stats_json(path, stats))
            except OSError as e:
                print("ripper: error: cannot write %s: %s" % (args.stats_json, e.strerror),
                      file=sys.stderr)
                return 1
        write_atomically(args.output, out)
        if args.stats:                  # --all-async's report too: quiet unless asked
            for line in notes:
                print(line, file=sys.stderr)
            print_stats(stats)
    except Diagnostic as d:
        report(d, flags + clang_args)
        return 1
    except CompilerRejects as e:    # its errors are printed: nothing to add
        return e.status
    except OSError as e:
        print("ripper: error: cannot write %s: %s" % (args.output, e.strerror), file=sys.stderr)
        return 1
    return 0


def print_warnings(warnings, flags):
    """Warnings of a rip that succeeded (on failure, the error reports them)."""
    report(warnings, flags)


def print_stats(stats):
    """ripper --stats: a row per async function, each part of its frame
    below it with why it is there, then the deepest chain of frames one
    task can hold below each (frame.deepest_chains)."""
    from .frame import deepest_chains
    chains = deepest_chains(stats)
    print("%-24s %11s %11s %9s %8s %11s" % ("async function", "frame bytes", "suspensions",
                                             "in frame", "C locals", "chain bytes"),
          file=sys.stderr)
    for st in stats:
        size = chains[st.name][0]
        print("%-24s %11d %11d %9d %8d %11s" % (st.name, st.frame_bytes, st.suspensions,
                                                 st.in_frame, st.c_locals,
                                                 "unbounded" if size is None else size),
              file=sys.stderr)
        for name, nbytes, why in st.variables:
            print("    %-20s %11d  %s" % (name, nbytes, why), file=sys.stderr)
    deep = [(st.name, chains[st.name]) for st in stats if len(chains[st.name][1]) > 1]
    if deep:
        print("chains (the frames one task holds at once below a call; other files' "
              "functions, the runtime's and calls through pointers not counted):",
              file=sys.stderr)
    for name, (size, chain) in deep:
        print("    %s: %s: %s" % (name, "unbounded (recursion)" if size is None else
                                  "%d bytes" % size, " -> ".join(chain)), file=sys.stderr)


def stats_json(path, stats):
    """--stats-json: what --stats prints, for tools (bytes of UTF-8)."""
    import json
    from .frame import deepest_chains
    chains = deepest_chains(stats)
    return (json.dumps({"file": path, "functions": [{
        "name": st.name, "file": st.where[0] if st.where else path,
        "line": st.where[1] if st.where else 0, "frame_bytes": st.frame_bytes,
        "suspensions": st.suspensions, "in_frame": st.in_frame, "c_locals": st.c_locals,
        "parts": [{"name": n, "bytes": b, "why": w} for n, b, w in st.variables],
        "calls": st.callees, "calls_through_pointers": st.pointer_calls,
        "chain_bytes": chains[st.name][0], "chain": chains[st.name][1]}
        for st in stats]}, indent=1) + "\n").encode()


def frame_budget(text):
    """--max-frame's N (text): bytes, a whole number, else ValueError."""
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise ValueError("--max-frame: '%s' is not a number of bytes" % text)
    return n


def _frame_budget_argument(text):
    import argparse
    try:
        return frame_budget(text)
    except ValueError:
        raise argparse.ArgumentTypeError("'%s' is not a number of bytes" % text)


def over_budget(stats, limit):
    """--max-frame=limit: an error per async function whose frame is
    bigger, naming its biggest parts."""
    if limit is None:
        return []
    out = []
    for st in stats:
        if st.frame_bytes <= limit:
            continue
        path, line, col = st.where or ("", 0, 0)
        biggest = sorted((p for p in st.variables if not p[0].startswith("(header")),
                         key=lambda p: -p[1])[:3]
        out.append(Diagnostic(path, line, col, "the frame of '%s' is %d bytes, more than "
                              "--max-frame=%d" % (st.name, st.frame_bytes, limit),
                              "most of it: " + "; ".join(
                                  "%s, %d bytes (%s)" % p for p in biggest) +
                              " (ripper --stats shows it all)"))
    return out


def rip_source_reporting(path, source, clang_args, all_async=False, stats=None, notes=None,
                         depend=(), seconds=None, blocking_mode="warn", warnings=None,
                         posix=False, also_async=None, files=None, preprocessed=False):
    """rip_source in a child process, with a bug in ripper itself reported
    as a diagnostic (RIPPER_DEBUG=1 rips in this process and shows the
    traceback), and so is a crash: libclang overflows its stack on nesting
    some thousands deep, and a crash must not take the command with it.
    `seconds`: the time limit (time_limit()); `blocking_mode`, `warnings`:
    `also_async`, `files`: see rip_source.  The child leads a process
    group, its preprocessor in it: whatever ends the rip (an error, the
    time limit, a signal) ends the whole group, no preprocessor left."""
    if os.environ.get("RIPPER_DEBUG"):
        try:
            return rip_source(path, source, clang_args, all_async, stats, notes=notes,
                              depend=depend, blocking_mode=blocking_mode, warnings=warnings,
                              posix=posix, also_async=also_async, files=files,
                              preprocessed=preprocessed)
        except Diagnostic as d:
            raise compiler_judges(d, path, source, clang_args, seconds)
    limit = time_limit(source, seconds)
    parent = os.getpid()

    def work():                     # the child: rip, send the outcome, exit
        _die_with(parent)
        return _rip_on_big_stack(path, source, clang_args, all_async, depend, limit,
                                 blocking_mode, posix, also_async, preprocessed)
    pid, rfd = _forked(work)
    outcome = None
    try:
        with os.fdopen(rfd, "rb") as f:
            data = f.read()
        outcome = _loaded(data)
        ripped = outcome is not None and outcome[0] == "ok"
        if ripped:
            # The child has sent all it had and is exiting, which takes
            # milliseconds (the kernel unmaps libclang and the big stack):
            # not waited for here, but before the next child or at exit.
            _exiting.append(pid)
        else:
            # ended, not yet reaped (so its group's id is still ours): what
            # it started (a preprocessor) goes with it; its status is kept
            os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
            children.kill_group(pid)
            _, wait_status = os.waitpid(pid, 0)
            children.untrack(pid)
        pid = 0
    finally:
        if pid:                     # interrupted: the child goes too, and its group
            children.kill_group(pid)
            os.waitpid(pid, 0)
            children.untrack(pid)
    if ripped:
        out, child_stats, child_notes, child_warnings, child_files = outcome[1]
        if files is not None:
            files.extend(child_files)
        if warnings is not None:
            warnings.extend(Diagnostic.of_fields(w) for w in child_warnings)
        if stats is not None:
            stats.extend(child_stats)
        if notes is not None:
            notes.extend(child_notes)
        return out
    if os.WIFSIGNALED(wait_status) and os.WTERMSIG(wait_status) == signal.SIGALRM:
        raise Diagnostic(path, 0, 0, "libclang did not finish parsing this file in %g s, "
                         "its time limit" % limit,
                         hint="libclang hangs on some malformed input (`(::)` in a function, "
                              "for one): try the file with cc; a file that only needs more "
                              "time: --timeout=SECONDS or RIPPER_TIMEOUT (0: no limit)")
    if os.WIFSIGNALED(wait_status) or outcome is None:
        sig = os.WTERMSIG(wait_status) if os.WIFSIGNALED(wait_status) else 0
        name = signal.Signals(sig).name if sig in signal.valid_signals() else str(sig)
        raise Diagnostic(path, 0, 0, "libclang or ripper crashed on this file (%s)"
                         % (name if sig else "exit status %d" % os.WEXITSTATUS(wait_status)),
                         hint="most likely statements or expressions nested too deep for "
                              "libclang's stack: split them up" if sig == signal.SIGSEGV else
                              "this is a bug in ripper; RIPPER_DEBUG=1 shows where")
    kind, value = outcome
    if kind == "diagnostics":
        first, *others = [Diagnostic.of_fields(d) for d in value]
        raise compiler_judges(first.with_others(others), path, source, clang_args, seconds)
    raise Diagnostic(path, 0, 0, "internal error in ripper (%s)" % value,
                     hint="this is a bug in ripper; RIPPER_DEBUG=1 shows where")


_exiting = []                   # ripping children that sent their outcome and are ending


def reap_children():
    """Wait for the ripping children that are ending (see rip_source_reporting)."""
    while _exiting:
        pid = _exiting.pop()
        os.waitpid(pid, 0)
        children.untrack(pid)


def _loaded(data):
    """A child's pickled outcome, or None if it sent nothing whole."""
    try:
        import pickle
        return pickle.loads(data)
    except Exception:
        return None


def _die_with(parent):
    """End this child when `parent` ends, even by SIGKILL (a build tool's
    timeout): a hung parse must not outlive the ripper that started it."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)     # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass                        # not Linux: the parse alarm still ends it
    if os.getppid() != parent:      # the parent went before prctl
        os._exit(3)


STACK_BYTES = 512 << 20         # the ripping thread's: libclang and ripper recurse on nesting
PARSE_SECONDS = 60              # preprocessing and parsing may take this long, plus 1 s
BYTES_PER_SECOND = 10000        # per this many bytes of input (100 s per MB)


def parse_seconds(source):
    """The default time limit for ripping `source` (bytes)."""
    return PARSE_SECONDS + len(source) // BYTES_PER_SECOND


def time_limit_option(text):
    """Seconds (float) from --timeout's `text`, else from $RIPPER_TIMEOUT,
    else None (the default, parse_seconds()); 0 means no limit.  Raises
    ValueError on anything but a number >= 0.

        time_limit_option("90") -> 90.0
    """
    where = "--timeout"
    if text is None:
        text, where = os.environ.get("RIPPER_TIMEOUT"), "RIPPER_TIMEOUT"
        if not text:
            return None
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < 1e9:
        raise ValueError("%s: '%s' is not a number of seconds (0 for no limit)"
                         % (where, text))
    return seconds


def time_limit(source, seconds=None):
    """The seconds that preprocessing and parsing `source` may take, None
    for no limit: `seconds` if given (0: none), else $RIPPER_TIMEOUT if
    set and valid, else parse_seconds()."""
    if seconds is None:
        try:
            seconds = time_limit_option(None)
        except ValueError:
            seconds = None          # the commands refuse it; here the default holds
    if seconds is None:
        return parse_seconds(source)
    return seconds or None


def same_file(a, b):
    """Do paths `a` and `b` name one file (the same path, a symlink to it,
    a hard link of it)?"""
    try:
        sa, sb = os.stat(a), os.stat(b)
    except (OSError, ValueError):
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def special_kind(path):
    """"FIFO", "character device" or "block device" if `path` is one (read,
    it could wait or run on without end), else None.  /dev/null is a file
    here: it reads empty at once (build systems compile it)."""
    return children.special_kind(path)


def _rip_on_big_stack(path, source, clang_args, all_async, depend, limit, blocking_mode,
                      posix=False, also_async=None, preprocessed=False):
    """rip_source on a thread with a large stack, libclang parsing on it
    too (not on its own 8 MiB thread): ("ok", (text, stats, notes,
    warnings, files)), ("diagnostics", [Diagnostic.fields()...]) or ("bug", text)."""
    outcome = []

    def work():
        stats, notes, warnings, files = [], [], [], []
        try:
            out = rip_source(path, source, clang_args, all_async, stats, limit, notes, depend,
                             blocking_mode, warnings, posix, also_async, files, preprocessed)
            outcome.append(("ok", (out, stats, notes, [w.fields() for w in warnings], files)))
        except Diagnostic as d:
            outcome.append(("diagnostics", [e.fields() for e in [d] + d.others]))
        except Exception as e:
            outcome.append(("bug", "%s: %s" % (type(e).__name__, e)))
    signal.signal(signal.SIGALRM, signal.SIG_DFL)  # a parse that hangs ends the child
    os.environ["LIBCLANG_NOTHREADS"] = "1"
    try:
        threading.stack_size(STACK_BYTES)
        thread = threading.Thread(target=work)
        thread.start()
    except (ValueError, RuntimeError):  # no such stack here: libclang's own thread, then
        del os.environ["LIBCLANG_NOTHREADS"]
        work()
    else:
        thread.join()
    return outcome[0]


# -- ripcc --------------------------------------------------------------------

def runtime_library(backend):
    """(the backend's static library, built on first use; the flags every
    program linked with it must be compiled with): runtime.py.  Under
    RIP_SAN=1 both are the sanitizer build's."""
    try:
        return runtime.library(backend, compiler())
    except Diagnostic as d:
        raise SystemExit("ripcc: error: " + d.message)


def main_ripper():
    children.install()
    _exit_now(ripper_main())


def main_ripcc():
    children.install()
    from .ripcc import COMPILING, main, started_by_itself   # the driver builds on this module
    status = started_by_itself()
    if status is not None:
        _exit_now(status)
    os.environ[COMPILING] = "1"     # for what it runs: cc, and any ripcc cc would run
    _exit_now(main())


def _exit_now(status):
    """Exit with `status` without tearing the interpreter down (some 10 ms
    of every file of a build, for nothing: the command has done all it
    does).  Output is flushed first; if it cannot be, the usual exit
    reports why.  A ripping child still ending is left to end alone."""
    if status is None:
        status = 0
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        sys.exit(status)
    if not isinstance(status, int):
        sys.exit(status)            # a message to print
    os._exit(status)
