"""ripcc.py -- the compiler driver: cc's command line, with ripping in it.

ripcc takes what cc takes, in the same order, and means the same by it:
with the rip backend each C source is ripped (by the compiler's own
preprocessor and ripper) into preprocessed C, which is compiled in its
place; with ucontext and threads the sources are compiled as they are.
Then the backend's runtime library is linked after everything else.

    ripcc -O2 main.c util.o libfoo.a -lm -o prog
    ->  ripper main.c  >  T/0-main.i
        cc -O2 -c T/0-main.i -o T/0-main.o
        cc -O2 T/0-main.o util.o libfoo.a -lm -o prog librip-rip.a -pthread

It compiles through $RIPCC_CC (default cc), never $CC, so that it can be a
build's CC itself.  -E and -M/-MM only preprocess (as cc does, with
rip.h's folder on the include path; on rip with __RIPPER__ defined, as
ripper preprocesses, so RIP_ASYNC's marks stay and the .i can be ripped);
-MD/-MMD write dependency files that name the user's files, not ripcc's
temporaries.

Every child (ripping child, cc, the linker) leads a process group, and
the temporary folder is recorded: on SIGINT, SIGTERM or SIGHUP ripcc ends
them all and removes it (children.py).  An output that is one of the
inputs is refused before anything runs.
"""

import io
import os
import re
import shlex
import stat
import subprocess
import sys

from . import __version__, abi, blocking, children, runtime
from .cli import (BACKENDS, PATH_FLAGS, TLS_ONLY, check_blocking_reporting, compile_flags,
                  frame_budget, new_file_beside, over_budget, print_warnings,
                  rip_source_reporting,
                  same_file, special_kind, time_limit_option, without_preprocessor_flags)
from .diag import CompilerRejects, Diagnostic, report, wants_color
from .preprocess import FRAME_HEADER, compiler

USAGE = """usage: ripcc [--backend=rip|ucontext|threads] [--all-async] [--posix]
             [--timeout=SECONDS] [--max-frame=N] [cc flags and files...]
       ripcc --equiv [--posix] [cc flags] files... [-- program args]
       ripcc --print-include-dir | --cflags | --libs [--backend=...]

Compile C written in blocking style against the ripper runtime, taking
what cc takes, in the same order.  With the rip backend (the default)
every C source is ripped first; ucontext and threads compile the files as
they are.  The runtime library is linked after everything else.  Flags go
to the C compiler ($RIPCC_CC, default cc; never $CC, so ripcc can itself
be a build's CC); ripper preprocesses with the same flags.

ripcc's own options (never passed to cc):
  --backend=B          the runtime (also --backend B): rip (the default:
                       every C source ripped), ucontext or threads
  --all-async          testing mode (rip): every function async, main the
                       first task; any valid C program behaves as before
  --posix              POSIX mode: the program's blocking C library calls
                       suspend only the calling task (below)
  --equiv              build for every backend, run each, compare (below)
  --timeout=SECONDS    time limit for ripping one file (below)
  --max-frame=N        rip: fail the compile (exit 1, no object) when an
                       async function's frame is more than N bytes; no
                       frames on ucontext and threads
  -Wblocking           a plain blocking call in an async function is a
                       warning (the default)
  -Wno-blocking        it is nothing
  -Werror=blocking     it is an error (exit 1)
  -Wno-error=blocking  it is a warning again
  --print-include-dir  print the folder of rip.h
  --cflags             print the flags that compile against the runtime
  --libs               print the runtime library and flags that link it
  -h, --help-ripcc, --help
                       print this help (--help only alone: with other
                       arguments it is cc's)
  --version            print ripcc's version, then the compiler's

cc's options that ripcc reads, meaning what they mean to cc:
  -c, -S, -E           no link: objects, assembly, or preprocessed text
                       (-E: with rip.h's folder on the include path)
  -fsyntax-only        check the (ripped) text, write nothing
  -o FILE              the output
  -M, -MM              only preprocess, into make rules
  -MD, -MMD, -MP, -MG  dependency files, naming the user's files
  -MF FILE, -MT T, -MQ T
                       the dependency file and its target
  -x LANG              the language of the inputs after it (-x none too)
  -v, -###             show the commands, the ripping too (with no input
                       at all, the command is cc's: ripcc -v)
  -save-temps          keep the ripped text as NAME.rip.i
  -w                   no warnings, blocking calls' too
  -fsanitize=LIST      link a runtime built with the same sanitizers
  -fmax-errors=N, -Wfatal-errors, -fdiagnostics-format=json,
  -fno-diagnostics-show-caret
                       ripping's own messages stop and show as gcc's
  @FILE                read arguments from FILE, as cc does

Preprocessed C (.i, -x cpp-output) is ripped as it is, not preprocessed
again.  On rip it must hold RIP_ASYNC's marks, which ripcc -E keeps (and
cc -E -D__RIPPER__); plain cc -E drops them (RIP_ASYNC is empty to cc),
and such a .i is an error.  ripper's own output (-save-temps' NAME.rip.i)
is compiled as it is.

--equiv builds the program for all three backends, runs each with the
program args, and compares standard output and exit status: rip and
ucontext must match byte for byte; threads may print the same lines in
another order (it keeps the meaning of every call, not the order).
With --posix the program's plain build (cc -pthread, no ripcc) is a
fourth, compared as threads is.  Exit 0 when equivalent, 1 when not.

--all-async (a testing mode, rip backend) rips every function defined in
the files into an async one that yields once on entry, with main as the
first task: any valid C program must behave exactly as before.  -v says,
per file, how many functions it ripped and why any stayed plain.

--posix (POSIX mode, in progress): a program written against plain POSIX
is built unchanged: its blocking calls of the C library (read, write,
readv, writev, recv, send, recvfrom, sendto, recvmsg, sendmsg, accept,
accept4, connect, poll, select, epoll_wait, sleep, usleep, nanosleep,
and stdio on sockets, pipes and terminals: fgets, fgetc, getc, getchar,
getline, getdelim, fread, fwrite, fputs, puts, fputc, putc, putchar,
printf, fprintf, vprintf, vfprintf, dprintf, vdprintf, fflush, fclose, scanf,
fscanf, vscanf, vfscanf;
glibc only)
suspend only the calling task, each with its system call's contract, and main runs as the
first task.  rip: ripper makes each caller
async, across files too: each object compiled with --posix keeps how to
rip it again (a section left out of the program), and the link rips again
those that call another object's async functions plainly (-v says which
and why); ucontext: the link wraps the calls and main (-Wl,--wrap=NAME);
threads: the real calls.  Its other blocking calls are -Wblocking
warnings.  With --equiv, the program's plain build (cc -pthread) is
compared too.

-Wno-blocking, -Werror=blocking (and -Wblocking, -Wno-error=blocking) are
ripcc's, never passed to cc: whether a plain blocking call in an async
function (read, sleep, waitpid, fgets...) is a warning (the default, with
the rip backend), nothing or an error; -w silences it too, -Werror alone
does not make it an error.

--timeout=SECONDS: the time preprocessing and parsing one file for ripping
may take before ripcc gives up on it (exit 1), 0 for no limit; default
$RIPPER_TIMEOUT, else 60 s plus 1 s per 10 KB of the file.

An output that is one of the inputs, by any name (a symlink, a hard link)
is refused (exit 2), and so is a FIFO or a device other than /dev/null as
an input or, when ripping, an #include (exit 1).  On SIGINT, SIGTERM or
SIGHUP ripcc ends every child it started, removes its temporary files and
dies of the signal (the shell says 130, 143, 129).

--print-include-dir, --cflags and --libs print what another build system
needs to compile and link against the runtime without ripcc (the runtime
library is built first if it is missing).

Environment: RIPCC_CC, the C compiler (default cc).  RIPPER_TIMEOUT, the
time limit when --timeout is not given.  RIP_SAN=1 compiles
and links with AddressSanitizer and UndefinedBehaviorSanitizer against a
runtime built with them.  XDG_CACHE_HOME: where an installed ripcc
builds the runtime libraries (default ~/.cache/ripper).

-fsanitize=address, undefined or thread (or a mix) links a runtime built
with the same sanitizers (built on first use, like the plain one), so
ASan knows the runtime's stack switches; -fsanitize=thread is refused
for the ucontext backend.

Exit status: cc's; 1 when ripping fails, 2 on bad usage.  See ripcc(1)."""

# Arguments after which the next one is the flag's value, not an input.
VALUE_FLAGS = PATH_FLAGS + ("-D", "-U", "-o", "-MF", "-MT", "-MQ", "-x", "-Xlinker", "-L",
                            "-l", "-Xpreprocessor", "-Xassembler", "-arch", "-target",
                            "-aux-info", "-T", "-u", "-z", "-e", "--param")
DEPENDENCY_FLAGS = ("-MD", "-MMD", "-MP", "-MG")
DEPENDENCY_VALUE_FLAGS = ("-MF", "-MT", "-MQ")
# ripcc's own options (a misspelling of one is an error, not a flag for cc).
RIPCC_OPTIONS = ("--backend", "--all-async", "--posix", "--equiv", "--print-include-dir",
                 "--cflags", "--libs", "--help-ripcc", "--timeout", "--max-frame")
# Questions for the compiler, not a compilation: asked of cc as they are.
QUERIES = ("-dumpversion", "-dumpfullversion", "-dumpmachine", "-dumpspecs", "-print-",
           "--print-", "--help", "--target-help")


class Command:
    """A ripcc command line, read the way cc reads it."""

    def __init__(self, argv):
        self.backend, self.all_async = "rip", False
        self.posix = False          # --posix: its blocking POSIX calls suspend (blocking.POSIX_CALLS)
        self.timeout = None         # --timeout's value (text), None if not given
        self.max_frame = None       # --max-frame's value (text), None if not given
        self.args = []              # cc's arguments in order, inputs included, -o not
        self.output = None          # -o's value
        self.sources = []           # indices in args of the C sources
        self.preprocessed = set()   # those of them preprocessed already (.i, -x cpp-output)
        self.stop = None            # "-c", "-S", "-E" (-M/-MM too), or None: link
        self.depend = []            # -MD -MMD -MF f -MT t ...: the dependency file's flags
        self.verbose = False        # -v or -###
        self.save_temps = False
        self.languages = {}         # index in args of an input -> the -x language in effect there
        warnings = []               # -Wblocking and the like (ripcc's), and -w (cc's too)
        language = None             # -x's language for the inputs that follow
        it = iter(argv)
        for a in it:
            if a.startswith("--backend="):
                self.backend = a.split("=", 1)[1]
            elif a == "--backend":
                self.backend = next(it, "")
            elif a == "--all-async":
                self.all_async = True
            elif a == "--posix":
                self.posix = True
            elif a in blocking.FLAGS:
                warnings.append(a)
            elif a.startswith("--timeout="):
                self.timeout = a.split("=", 1)[1]
            elif a == "--timeout":
                self.timeout = self.value(it, a)
            elif a.startswith("--max-frame="):
                self.max_frame = a.split("=", 1)[1]
            elif a == "--max-frame":
                self.max_frame = self.value(it, a)
            elif a == "-o":
                self.output = self.value(it, a)
            elif a.startswith("-o") and len(a) > 2:
                self.output = a[2:]
            elif a in ("-c", "-S", "-E", "-fsyntax-only"):
                if not (a == "-fsyntax-only" and self.stop == "-E"):
                    self.stop = a   # (cc's last one wins, but -E over -fsyntax-only)
                self.args.append(a)
            elif a in ("-M", "-MM"):
                self.stop = self.stop or "-E"
                self.args.append(a)
            elif a in DEPENDENCY_FLAGS:
                self.depend.append(a)
                self.args.append(a)
            elif a in DEPENDENCY_VALUE_FLAGS:
                value = self.value(it, a)
                self.depend += [a, value]
                self.args += [a, value]
            elif a.startswith(DEPENDENCY_VALUE_FLAGS):
                self.depend += [a[:3], a[3:]]
                self.args.append(a)
            elif a == "-x":
                language = self.value(it, a)
                self.args += [a, language]
            elif a.startswith("-x"):
                language = a[2:]
                self.args.append(a)
            elif a in ("-v", "-###"):
                self.verbose = True
                self.args.append(a)
            elif a.startswith("-save-temps"):
                self.save_temps = True
                self.args.append(a)
            elif a in VALUE_FLAGS:
                self.args += [a, self.value(it, a)]
            elif a == "-" or not a.startswith("-"):
                if language not in (None, "none"):
                    self.languages[len(self.args)] = language
                if language == "c" or (language in (None, "none") and a.endswith(".c")):
                    self.sources.append(len(self.args))
                elif language == "cpp-output" or (language in (None, "none") and
                                                  a.endswith(".i")):
                    self.preprocessed.add(len(self.args))
                    self.sources.append(len(self.args))
                self.args.append(a)
            else:
                if a == "-w":
                    warnings.append(a)
                self.args.append(a)
        self.blocking = blocking.mode(warnings)  # "warn", "error" or "off"

    @staticmethod
    def value(it, flag):
        value = next(it, None)
        if value is None:
            raise UsageError("%s needs a value" % flag)
        return value

    def inputs(self):
        return [a for i, a in enumerate(self.args) if self.is_input(i)]

    def is_input(self, i):
        """Is args[i] an input file (not the value of the flag before it)?"""
        if i in self.sources:
            return True
        a = self.args[i]
        if a.startswith("-") and a != "-":
            return False
        return i == 0 or self.args[i - 1] not in VALUE_FLAGS + DEPENDENCY_VALUE_FLAGS

    def with_languages(self, args, keep=lambda i: True, more_inputs=False):
        """args (self.args, or a list in its places: objects for the
        sources; only the inputs `keep` says) with the -x flags placed as
        each input needs its own: none before an object made from a
        source, the user's -x before an input it applies to, none written
        after the last input (cc warns that it does nothing there) unless
        `more_inputs` follow (the runtime library: then -x none).

            ripcc -x c - -o p      ->  link: [<object of ->, "-o", "p"]
            -x assembler a.s b.c   ->  ["-x", "assembler", "a.s", "-x", "none", <b.o>]
        """
        out, current = [], "none"
        skip = False
        for i, a in enumerate(args):
            if skip:
                skip = False
                continue
            if self.args[i] == "-x":
                skip = True
                continue
            if self.args[i].startswith("-x"):
                continue
            if self.is_input(i):
                if not keep(i):
                    continue
                wanted = "none" if i in self.sources else self.languages.get(i, "none")
                if wanted != current:
                    out += ["-x", wanted]
                    current = wanted
            out.append(a)
        if more_inputs and current != "none":
            out += ["-x", "none"]
        return out

    def without_inputs(self):
        """args less the inputs, -x, -c/-S/-E and the dependency flags: the
        flags one compilation of one source takes (its language and
        dependency file are the driver's to say)."""
        out, skip = [], False
        for i, a in enumerate(self.args):
            if skip:
                skip = False
            elif a in DEPENDENCY_VALUE_FLAGS or a == "-x":
                skip = True
            elif not (self.is_input(i) or a in ("-c", "-S", "-E", "-fsyntax-only") or
                      a in DEPENDENCY_FLAGS or
                      a.startswith(DEPENDENCY_VALUE_FLAGS + ("-x",))):
                out.append(a)
        return out


class UsageError(Exception):
    pass


# In the environment of what a ripcc process runs (cc, the linker): a ripcc
# started with it set was started by ripcc as its compiler.
COMPILING = "RIPCC_RUNNING"


def started_by_itself():
    """A ripcc process run as the C compiler of a ripcc (RIPCC_CC=ripcc, or
    a wrapper that calls ripcc) would start another, and so on until a
    timeout: the message and exit status that end it at once, else None."""
    asked = shlex.split(os.environ.get("RIPCC_CC") or "") or [""]
    if not os.environ.get(COMPILING) and os.path.basename(asked[0]) != "ripcc":
        return None
    print("ripcc: error: ripcc was run as the C compiler of ripcc (RIPCC_CC is '%s', or a "
          "wrapper it runs calls ripcc): it would start itself again and again"
          % os.environ.get("RIPCC_CC", ""), file=sys.stderr)
    print("ripcc: note: set RIPCC_CC to the compiler itself (cc, gcc, clang, or a wrapper such "
          "as 'ccache cc')", file=sys.stderr)
    return 1


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        argv = response_files(argv)
    except UsageError as e:
        return _usage_error(str(e))
    if not argv or argv[0] in ("-h", "--help-ripcc") or argv == ["--help"]:
        _print(USAGE)
        return 0 if argv else 2
    if argv[0] == "--version":
        _print("ripcc %s (ripper's compiler driver); compiling with:" % __version__)
        return _run_cc(["--version"])
    if argv[0] == "--equiv":
        return equiv_main(argv[1:])
    try:
        cmd = Command(argv)
    except UsageError as e:
        return _usage_error(str(e))
    for a in cmd.args:
        if not a.startswith("--") or a.split("=")[0] in RIPCC_OPTIONS:
            continue
        import difflib          # here: only a misspelt option needs it (2 ms)
        near = difflib.get_close_matches(a.split("=")[0], RIPCC_OPTIONS, 1, 0.75)
        if near:
            return _usage_error("unknown option '%s' (did you mean '%s'?)" % (a, near[0]))
    if cmd.backend not in BACKENDS:
        return _usage_error("unknown backend '%s' (choose from %s)"
                            % (cmd.backend, ", ".join(BACKENDS)))
    info = [a for a in cmd.args if a in ("--print-include-dir", "--cflags", "--libs")]
    if info:
        return print_build_info(cmd.backend, info, runtime.sanitizers_of(cmd.args))
    if any(a.startswith(QUERIES) for a in cmd.args) and not cmd.inputs():
        return _run_cc(cmd.args)
    if cmd.all_async and cmd.backend != "rip":
        return _usage_error("--all-async rips every function: it needs --backend=rip")
    if not cmd.inputs():            # -v, -Wl,--version, or cc's own "no input files"
        return _run_cc(cmd.args)
    try:
        cmd.seconds = time_limit_option(cmd.timeout)
        if cmd.max_frame is not None:
            cmd.max_frame = frame_budget(cmd.max_frame)
    except ValueError as e:
        return _usage_error(str(e))
    for out in outputs(cmd):
        for i in cmd.inputs():
            if i != "-" and same_file(i, out):
                print("ripcc: error: input file '%s' is the same as output file" % i,
                      file=sys.stderr)
                return 2
    if cmd.stop != "-E":            # -E -dM -x c /dev/null and the like are cc's to answer
        for i in cmd.inputs():
            kind = None if i == "-" else special_kind(i)
            if kind:
                print("ripcc: error: '%s' is a %s, not a file" % (i, kind), file=sys.stderr)
                return 1
    try:
        return build(cmd)
    except CompilerRejects as e:    # the compiler's errors, as it printed them: nothing more
        return e.status
    except Diagnostic as d:
        if d.path:
            report(d, cmd.args)
        else:
            print("ripcc: error: " + d.message + ("\nripcc: note: " + d.hint if d.hint else ""),
                  file=sys.stderr)
        return 1


def response_files(argv, depth=0):
    """cc's @FILE: the arguments FILE holds (split at white space; quotes
    and backslashes as the shell's), in place, FILEs in it too; an @FILE
    that cannot be read stays an argument, as cc leaves it.

        ["-O2", "@args.rsp"]  (args.rsp: -c "my file.c")  ->  ["-O2", "-c", "my file.c"]
    """
    out = []
    for a in argv:
        if not a.startswith("@") or len(a) == 1:
            out.append(a)
            continue
        try:
            with open(a[1:], encoding="utf-8", errors="surrogateescape") as f:
                text = f.read()
        except OSError:
            out.append(a)
            continue
        if depth > 20:
            raise UsageError("response file %s includes itself (more than 20 deep)" % a)
        try:
            words = shlex.split(text)
        except ValueError as e:
            raise UsageError("response file %s: %s" % (a[1:], e))
        out += response_files(words, depth + 1)
    return out


def outputs(cmd):
    """Every file `cmd` writes (but temporaries): -o's, else what cc names
    for each input (x.o, x.s) or a.out; the dependency file (-MF)."""
    out = [cmd.depend[i + 1] for i, a in enumerate(cmd.depend) if a == "-MF"]
    if cmd.output and cmd.output != "-":
        out.append(cmd.output)
    elif cmd.stop in ("-c", "-S"):
        out += [_stem(i) + (".s" if cmd.stop == "-S" else ".o") for i in cmd.inputs()]
    elif cmd.stop == "-fsyntax-only":
        pass
    elif not cmd.stop:
        out.append("a.out")
    return out


def backend_flags(backend):
    """What tells rip.h the backend a file is built for (ripping says rip)."""
    return [] if backend == "rip" else ["-DRIP_BACKEND_" + backend.upper()]


def build(cmd):
    # -fsanitize=address... links a runtime built with the same sanitizers
    library, lib_flags = runtime.library(cmd.backend, compiler(), runtime.sanitizers_of(cmd.args))
    cc = compiler() + lib_flags + backend_flags(cmd.backend)
    include = ["-I", runtime.INCLUDE]
    if cmd.stop == "-E":            # preprocessing (-E, -M, -MM): what cc does, rip.h found,
        # on rip as ripper preprocesses (RIP_ASYNC's marks kept: its .i is ripped)
        marks = ["-D__RIPPER__=1"] if cmd.backend == "rip" else []
        return _run(cmd, cc + marks + include + cmd.args + _output(cmd))
    if cmd.stop and cmd.output and len(cmd.inputs()) > 1:
        return _usage_error("cannot specify -o with -c or -S and several source files")
    # made when first needed: a plain compile writes no temporary file
    with children.temporary_folder("ripcc-") as tmp:
        objects = {}
        for n, i in enumerate(cmd.sources):
            src = cmd.args[i]
            if cmd.stop == "-fsyntax-only":
                out = None
            elif cmd.stop:
                out = cmd.output or _stem(src) + (".s" if cmd.stop == "-S" else ".o")
            else:
                out = os.path.join(tmp, "%d-%s.o" % (n, _stem(src)))
            status = compile_one(cmd, src, out, cc, include, lib_flags, tmp, n,
                                 i in cmd.preprocessed)
            if status:
                return status
            objects[i] = out
        if cmd.stop:
            for i in range(len(cmd.args)):      # assembly and the like: cc's, as they are
                if cmd.is_input(i) and i not in cmd.sources:
                    status = _run(cmd, cc + include + cmd.with_languages(
                        cmd.args, keep=lambda j, i=i: j == i) + _output(cmd))
                    if status:
                        return status
            return 0
        args = [objects.get(i, a) for i, a in enumerate(cmd.args)]  # sources -> objects
        names = {objects[i]: cmd.args[i] for i in objects}     # an object -> its source
        inputs = [a for i, a in enumerate(args) if cmd.is_input(i) and a.endswith((".o", ".a"))]
        symbols = _symbols(inputs, names)
        if symbols.posix and cmd.backend == "ucontext" and not cmd.posix:
            raise Diagnostic("", 0, 0, "%s %s compiled with --posix: link with ripcc --posix "
                             "too (its blocking calls become the runtime's at the link)"
                             % (", ".join(sorted(symbols.posix)),
                                "was" if len(symbols.posix) == 1 else "were"))
        refused = sorted(symbols.pthread_refused.items())
        if refused and cmd.posix and cmd.backend == "ucontext":
            raise Diagnostic("", 0, 0, "%s: '%s' under --posix, where threads are tasks: it is "
                             "not mapped to them" % (refused[0][1], refused[0][0]),
                             "the pthread calls --posix maps are listed in docs/posix.md; use "
                             "a mutex and a condition variable, or build without --posix")
        wrong = sorted((f, b) for f, b in symbols.backends.items() if b != cmd.backend)
        if wrong:
            raise Diagnostic("", 0, 0, "this link is for the %s backend, but %s: build "
                             "every object with the same --backend" % (cmd.backend, ", ".join(
                                 "%s was built for %s" % fb for fb in wrong)))
        from . import wholeprogram  # here, at the link: a compile needs none of it
        if cmd.backend == "rip" and not cmd.posix:
            posix = [names.get(f, f) for f in inputs if wholeprogram.has_record(f)]
            if posix:
                raise Diagnostic("", 0, 0, "%s %s compiled with --posix: link with ripcc "
                                 "--posix too (it rips them again with the async functions "
                                 "of the others, and links the calls' runtime)"
                                 % (", ".join(posix), "was" if len(posix) == 1 else "were"))
        if cmd.posix and cmd.backend == "rip":
            # a call of another file's async function, plain in the file
            # compiled alone: its object is ripped again (wholeprogram.py)
            again = wholeprogram.rip_again(
                inputs, names, tmp, lambda record, also, out: rip_again_one(cmd, record, also, out,
                                                                    lib_flags), cmd.verbose)
            args = [again.replaced.get(a, a) if cmd.is_input(i) else a
                    for i, a in enumerate(args)]
            names.update(again.names)
        else:
            again = None
        # a shared library leaves the runtime to the program that loads it:
        # one runtime (one scheduler) per process
        runtime_lib = [] if "-shared" in cmd.args else [library]
        link = cc + _without_dependency_flags(cmd.with_languages(args, more_inputs=bool(
            runtime_lib))) + \
            ["-o", cmd.output or "a.out"] + \
            runtime_lib + ["-pthread"] + posix_link_flags(cmd)
        link_map = _user_link_map(link) or os.path.join(tmp, "link.map")
        if again is not None and again.stuck and not _user_link_map(link):
            link.append("-Wl,-Map," + link_map)     # which archive members the link takes
        if cmd.verbose:
            print("ripcc: " + " ".join(link), file=sys.stderr)
        r = children.run(link, stderr=subprocess.PIPE)
        sys.stderr.write(r.stderr.decode("utf-8", "replace"))
        if r.returncode:
            text = r.stderr.decode("utf-8", "replace")
            if again is not None and again.stuck:
                _explain_stuck_members(text, again.stuck)
            else:
                _explain_link_errors(text, symbols, names,
                                     [a for i, a in enumerate(args) if cmd.is_input(i) and
                                      a.endswith((".o", ".a"))], cmd.posix)
        elif again is not None and again.stuck:
            taken = _stuck_members_taken(link_map, again)
            if taken:
                # its plain calls would take the plain forms, whose waits
                # cannot suspend: refused, as if the link had failed
                for o in taken:
                    print("ripcc: error: " + o.stuck, file=sys.stderr)
                _remove_output(cmd.output or "a.out")
                return 1
        return r.returncode


_NM_LINE = re.compile(r"^(.*):[0-9a-fA-F ]* (\w) (\S+)$")


class _Symbols:
    def __init__(self):
        self.backends = {}          # object (as the user named it) -> the backend it was built for
        self.ripped = {}            # name of an async function -> where it is defined
        self.posix = set()          # objects compiled by ripcc --posix for ucontext
        self.pthread_refused = {}   # blocking.POSIX_PTHREAD_REFUSED called -> an object calling it


POSIX_MARK = os.path.join(runtime.INCLUDE, "rip_posix_built.h")


def posix_link_flags(cmd):
    """--posix on ucontext: the link sends the program's blocking calls and
    main to the runtime's wrappers (runtime/src/ucontext/posix.c), which
    suspend the task inside one and call the C library outside.  On rip
    the ripped code calls the runtime's own forms, and the link sends what
    is left (code ripper did not rip: a library built on its own) to the
    run-time catch (runtime/src/rip/catch.c).  On both, sigaction, signal
    and close (core/psignal.c), so that a handled signal ends a wait and a
    close wakes the fd's waiters.

        posix_link_flags(<ripcc --posix --backend=ucontext t.c>)
        -> ["-Wl,--wrap=read", ..., "-Wl,--wrap=main"]
        posix_link_flags(<ripcc --posix t.c>) -> ["-Wl,--wrap=read", ...]
    """
    if not cmd.posix or cmd.backend == "threads":
        return []
    shared = "-shared" in cmd.args
    names = list(blocking.POSIX_CALLS + blocking.POSIX_FORTIFIED + blocking.POSIX_LFS)
    if cmd.backend == "rip":        # the run-time catch (rip/catch.c) has no form of these
        names = [n for n in names if n not in blocking.POSIX_SIGNAL_WAITS]
    if cmd.backend == "ucontext":
        names += list(blocking.POSIX_LINK_WRAPPED + blocking.POSIX_UCONTEXT_WRAPPED +
                      blocking.POSIX_PTHREAD) + ([] if shared else ["main"])
    elif not shared:                # the program's link wraps them (core/psignal.c)
        names += list(blocking.POSIX_LINK_WRAPPED)
    return ["-Wl,--wrap=" + name for name in names]


def _symbols(files, names):
    """What the objects and archives `files` say of themselves (nm)."""
    out = _Symbols()
    if not files:
        return out
    try:
        r = children.run(["nm", "-A"] + files, capture_output=True)
    except OSError:
        return out                  # no nm: no check
    for line in r.stdout.decode("utf-8", "replace").splitlines():
        m = _NM_LINE.match(line)    # file:value type name (file may be lib.a:member.o)
        if m is None:
            continue
        where, kind, name = names.get(m.group(1), m.group(1)), m.group(2), m.group(3)
        if name == "rip__built_posix":
            out.posix.add(where)
        elif name.startswith("rip__built_for_"):
            out.backends[where] = name[len("rip__built_for_"):]
        elif kind == "T" and abi.constructed(name):
            out.ripped[abi.constructed(name)] = where
        elif kind == "U" and name in blocking.POSIX_PTHREAD_REFUSED:
            out.pthread_refused.setdefault(name, where)
    return out


def _declarations(files):
    """{function: ["file:line" of a declaration of it]} from the .rip_decls
    sections ripper leaves in objects (lower.py's declarations_note)."""
    out = {}
    for f in files:
        try:
            r = children.run(["readelf", "-p", ".rip_decls", f], capture_output=True)
        except OSError:
            return out
        for m in re.finditer(r"^\s*\[\s*[0-9a-f]+\]\s+(\S+) (.+)$",
                             r.stdout.decode("utf-8", "replace"), re.M):
            out.setdefault(m.group(1), []).append(m.group(2))
    return out


def _explain_stuck_members(text, stuck):
    """The link failed, and archive members that call async functions
    plainly could not be ripped again: say why, for each the linker took."""
    missing = set(re.findall(r"undefined reference to `([^']+)'", text))
    for o in stuck:
        if o.needs & missing:
            print("ripcc: error: " + o.stuck, file=sys.stderr)


def _user_link_map(args):
    """The map file the user's own -Wl,-Map asks for (the link writes
    one), else None.

        _user_link_map(["-Wl,-Map,out.map"]) -> "out.map"
    """
    for a in args:
        m = re.match(r"-Wl,(?:-Map[,=]|--Map[,=])(.+)$", a)
        if m:
            return m.group(1).split(",")[0]
    return None


def _stuck_members_taken(link_map, again):
    """The archive members that could not be ripped again (again.stuck)
    which the link took, by its map file ("libsrv.a(server.o)  main.o
    (serve)" under "Archive member included ...")."""
    try:
        with open(link_map, encoding="utf-8", errors="replace") as f:
            text = f.read().split("\nMemory Configuration", 1)[0]
    except OSError:
        return []
    taken = []
    for o in again.stuck:
        for archive in {o.archive, again.replaced.get(o.archive)} - {None}:
            if re.search(r"(^|\s)%s\(%s\)" % (re.escape(archive), re.escape(o.member)), text,
                         re.M):
                taken.append(o)
                break
    return taken


def _remove_output(path):
    """Remove output `path` if it is an ordinary file (as gcc removes its
    outputs): never /dev/null, a symlink such as /dev/stdout, a FIFO."""
    if path is None:                # -fsyntax-only: nothing written
        return
    try:
        if stat.S_ISREG(os.lstat(path).st_mode):
            os.remove(path)
    except OSError:
        pass


def _explain_link_errors(text, symbols, names, files, posix=False):
    """A call of an async function through a declaration without RIP_ASYNC
    is a plain call of a symbol the ripped definition does not have: say so,
    and where that declaration is (objects compiled with --posix: that the
    link needs --posix too, which rips them again)."""
    from . import wholeprogram
    seen, declared = set(), None
    for m in re.finditer(r"(?:(\S+?):(\d+): )?undefined reference to `([^']+)'", text):
        name = m.group(3)
        if name in symbols.ripped and name not in seen:
            seen.add(name)
            where = ("%s:%s: " % (names.get(m.group(1), m.group(1)), m.group(2))
                     if m.group(1) else "ripcc: ")
            print("%serror: '%s' is async (ripped in %s), but is called through a "
                  "declaration without RIP_ASYNC" % (where, name, symbols.ripped[name]),
                  file=sys.stderr)
            if declared is None:
                declared = _declarations(files)
            for place in sorted(set(declared.get(name, []))):
                print("%s: note: this declaration of '%s' lacks RIP_ASYNC" % (place, name),
                      file=sys.stderr)
            print("note: mark every declaration of '%s' RIP_ASYNC, as its definition is"
                  % name, file=sys.stderr)
            if not posix and any(wholeprogram.has_record(f) for f in files):
                print("note: objects compiled with ripcc --posix need ripcc --posix at the "
                      "link too: it rips them again with the async functions of the others",
                      file=sys.stderr)


def _without_dependency_flags(args):
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in DEPENDENCY_VALUE_FLAGS:
            skip = True
        elif a not in DEPENDENCY_FLAGS and not a.startswith(DEPENDENCY_VALUE_FLAGS):
            out.append(a)
    return out


def compile_one(cmd, src, out, cc, include, lib_flags, tmp, n, preprocessed=False):
    """Compile C source `src` (ripped first on the rip backend) into `out`,
    an object or, with -S, assembly.  `preprocessed`: `src` is preprocessed
    C (.i, -x cpp-output), ripped without preprocessing it again."""
    stop = [cmd.stop] if cmd.stop in ("-S", "-fsyntax-only") else ["-c"]
    to = [] if out is None else ["-o", out]     # -fsyntax-only: no output
    flags = cmd.without_inputs()
    lang = ["-x", "cpp-output" if preprocessed else "c"] \
        if src == "-" or not src.endswith(".i" if preprocessed else ".c") else []
    if cmd.backend != "rip":
        if cmd.backend == "ucontext" and not cmd.all_async and src != "-" and \
                cmd.blocking != "off" and not preprocessed:
            # (threads: a blocking call blocks only its task's thread)
            if not cmd.posix and _headers_can_be_listed(cmd, out):
                # most files of a build have no async function: the compile
                # itself lists the headers that could give them one
                said = io.BytesIO()
                status, marked, listed = _compile_listing_headers(
                    cmd, cc + include + flags, stop + lang + [src] + to, src, out, said)
                # (failed with no list of ripcc's: a compiler that takes no
                # -MD, a full $TMPDIR: checked and compiled as before, below)
                if not (status and not listed and not cmd.depend):
                    _say(said)
                    return status or (_check_blocking(cmd, src, out) if marked else 0)
            if _check_blocking(cmd, src, None):
                return 1
        depend = _depend_flags(cmd, src, out) if cmd.depend else []
        marked = ["-include", POSIX_MARK] if cmd.posix and cmd.backend == "ucontext" else []
        status = _run(cmd, cc + include + flags + depend + marked + stop + lang + [src] + to)
        if status == 0 and marked and stop == ["-c"] and thread_local_symbols(out):
            try:                    # no object left whose tasks would share them
                if src != "-":      # (standard input cannot be read again: refused)
                    status = tasks_own_thread_locals(cmd, src, out, cc, lib_flags +
                                                     backend_flags(cmd.backend) + include +
                                                     marked, tmp, n)
                if status == 0:
                    refuse_thread_locals(src, out)  # what is left: a system header's
            except Diagnostic:
                _remove_output(out)
                raise
            if status:
                _remove_output(out)
        return status
    notes = []
    try:
        text = sys.stdin.buffer.read() if src == "-" else open(src, "rb").read()
    except OSError as e:
        raise Diagnostic("", 0, 0, "cannot read %s: %s" % (src, e.strerror))
    if not (cmd.posix or cmd.all_async or preprocessed or src == "-" or cmd.save_temps) and \
            not _NAMES_THE_RUNTIME.search(text) and _headers_can_be_listed(cmd, out):
        # A file that names nothing of rip.h is compiled as it is (what
        # ripper would give back, parsed for nothing), unless the headers
        # the compile read could give it an async function after all.
        said = io.BytesIO()
        status, marked, _ = _compile_listing_headers(
            cmd, cc + ["-D__RIPPER__=1", "-include", FRAME_HEADER] + flags +
            ["-I", runtime.INCLUDE], stop + lang + [src] + to, src, out, said)
        if not marked:
            _say(said)
            return status
        _remove_output(out)             # ripped below, or no object at all
    if preprocessed:
        how = _preprocessed_kind(text)
        if how == "ripped":         # ripcc's own output (-save-temps' NAME.rip.i): compiled
            if src == "-":          # as it is (ripped again, its frame ABI would be twice)
                src, lang = os.path.join(tmp, "%d-stdin.i" % n), []
                with open(src, "wb") as f:
                    f.write(text)
            return _run(cmd, cc + without_preprocessor_flags(flags) + stop + lang + [src] + to)
        if how == "unmarked":
            raise Diagnostic("", 0, 0, "%s is preprocessed C without RIP_ASYNC's marks, which "
                             "only ripper's preprocessing leaves (RIP_ASYNC is empty to cc): "
                             "which functions are async is lost, so it cannot be ripped"
                             % ("<stdin>" if src == "-" else src),
                             "rip the C source itself, or preprocess it with ripcc -E (or cc "
                             "-E -D__RIPPER__), which keeps the marks")
    depend = _depend_flags(cmd, src, out) if cmd.depend and not preprocessed else []
    shown_depend = None             # -MF /dev/stdout and the like: written there after
    if "-MF" in depend:
        i = depend.index("-MF") + 1
        # (/dev/stdout in the preprocessor is its own standard output: ripper's pipe)
        if _special_path(depend[i]):
            shown_depend, depend[i] = depend[i], os.path.join(tmp, "%d.d" % n)
    name = "<stdin>" if src == "-" else src
    if cmd.verbose:
        print("ripcc: ripper %s %s -o (ripped text)" % (" ".join(
            lib_flags + compile_flags(cmd.args) + depend +
            [f for f in [blocking.flag_of(cmd.blocking)] if f] +
            (["--posix"] if cmd.posix else [])),
            name), file=sys.stderr)
    warnings, files, stats = [], [], []
    ripped = rip_source_reporting(name, text, lib_flags + compile_flags(cmd.args),
                                  cmd.all_async, stats, notes=notes, depend=depend,
                                  seconds=getattr(cmd, "seconds", None),
                                  blocking_mode=cmd.blocking, warnings=warnings,
                                  posix=cmd.posix, files=files, preprocessed=preprocessed)
    over = over_budget(stats, cmd.max_frame)
    if over:
        report(warnings + over, cmd.args)
        return 1
    if shown_depend is not None:    # (the preprocessor's standard output is ripper's)
        _copy_into(depend[depend.index("-MF") + 1], shown_depend)
    print_warnings(warnings, cmd.args)
    if cmd.posix:                       # how to rip it again at the link (wholeprogram.py)
        from . import wholeprogram
        ripped += wholeprogram.record_asm(wholeprogram.make_record(
            None if src == "-" else src, compiler(), recorded_flags(flags), cmd.all_async,
            cmd.blocking, getattr(cmd, "seconds", None), files,
            [_place(w) for w in warnings], cmd.max_frame)).encode()
    if cmd.verbose:                     # --all-async's report: quiet unless asked, as cc is
        for line in notes:
            print(line, file=sys.stderr)
    path = os.path.join(tmp, "%d-%s.i" % (n, _stem(src)))
    if cmd.save_temps:                  # kept, as cc keeps its .i and .s
        path = _stem(src) + ".rip.i"
    with open(path, "wb") as f:
        f.write(ripped)
    # preprocessed C (.i): compiled without the preprocessor's flags
    args = cc + without_preprocessor_flags(flags) + stop + [path] + to
    if preprocessed or src == "-" or os.environ.get("RIPCC_RIPPED_MESSAGES"):
        # no source to compile again (or asked): cc's words on the ripped text, translated
        return _run_ripped(cmd, args, ripped, cmd.args)
    said = io.BytesIO()
    status = _run_ripped(cmd, args, ripped, cmd.args, said)
    if not said.getvalue():
        return status
    return _as_cc_says(cmd, status, said.getvalue(), args, src, lang, stop, out, tmp, n)


def _check_blocking(cmd, src, out):
    """-Wblocking on ucontext (check_blocking_reporting): its warnings
    printed -> 0, or its errors (-Werror=blocking) reported and `out`, if
    compiled already, removed -> 1."""
    try:
        text = open(src, "rb").read()
    except OSError:
        text = b""                  # the compiler says why
    found = check_blocking_reporting(src, text, compile_flags(cmd.args), cmd.blocking,
                                     cmd.posix, getattr(cmd, "seconds", None))
    if found and cmd.blocking == "error":
        _remove_output(out)
        report(found, cmd.args)
        return 1
    print_warnings(found, cmd.args)
    return 0


def _say(said):
    """cc's standard error, kept in `said` (a BytesIO), written out now."""
    sys.stderr.buffer.write(said.getvalue())
    sys.stderr.flush()


# What a source file names when it uses the runtime itself: its header,
# RIP_ASYNC, a rip_ call.  Such a file is ripped without a first compile.
_NAMES_THE_RUNTIME = re.compile(rb"\brip_|\bRIP_|rip\.h")


def _headers_can_be_listed(cmd, out):
    """Whether a compile of one file into `out` can tell, by the list of
    the headers it read (_compile_listing_headers), that the file has no
    async function, and be the build's compile then.  Not when the list
    leaves headers out (-MMD drops system headers: rip.h installed in one,
    or after `#pragma GCC system_header`), when the user's dependency
    output is one ripcc cannot read back or follow (-MF /dev/stdout or a
    FIFO, -Wp,-MD, the environment's DEPENDENCIES_OUTPUT), or when the
    output is no ordinary file (-o -, /dev/null: written once, by the
    compile that stays)."""
    lists = [v for f, v in zip(cmd.depend, cmd.depend[1:]) if f == "-MF"]
    return "-MMD" not in cmd.depend and \
        not any(_special_path(v) for v in lists) and \
        (out is None or (out != "-" and not _special_path(out))) and \
        not any(a.startswith(("-Wp,", "-Xpreprocessor")) for a in cmd.args) and \
        not os.environ.get("DEPENDENCIES_OUTPUT") and \
        not os.environ.get("SUNPRO_DEPENDENCIES")


def _special_path(path):
    """A path that is no ordinary file to write and read back: under /dev
    or /proc (in a child, /dev/stdout is the child's own), or there and
    not a regular file (a FIFO, a symlink: a first compile would write its
    target, which the compile that stays may not)."""
    if path.startswith(("/dev/", "/proc/")):
        return True
    try:
        return not stat.S_ISREG(os.lstat(path).st_mode)
    except FileNotFoundError:
        return False
    except (OSError, ValueError):
        return True


def _compile_listing_headers(cmd, front, back, src, out, said=None):
    """Run the compile `front` + dependency flags + `back` of `src` into
    `out`, and tell from the files it read (its dependency list: the
    user's -MD file, else one of ripcc's in $TMPDIR, read and removed)
    whether `src` could hold an async function: RIP_ASYNC's mark comes
    from rip.h, or from a file or flag that spells it.  `said`: a binary
    file that takes cc's standard error.  Returns (status, marked); marked
    is True too when the list is not to be had; listed: whether it was.

        _compile_listing_headers(cmd, cc, ["-c", "zlib.c"], "zlib.c", "zlib.o")
        -> (0, False, True)
    """
    own = None                      # ripcc's own list, removed after
    if cmd.depend:                  # the user's, as they are (-MF alone: cc's error)
        depend = _depend_flags(cmd, src, out)
        listing = depend[depend.index("-MF") + 1] if "-MD" in depend or "-MMD" in depend \
            else None               # (cc writes no list then: none to read)
    else:
        # a path, not a descriptor: a wrapper as RIPCC_CC may compile in
        # another process (sccache's server), where the path still means it
        try:
            fd, own = new_file_beside(os.path.join(os.environ.get("TMPDIR") or "/tmp", "d"))
            os.close(fd)
            listing, depend = own, ["-MD", "-MF", own]
        except OSError:
            listing, depend = None, []     # no list: as if marked
    args = front + depend + back
    if said is not None and wants_color(cmd.args, sys.stderr):
        args.append("-fdiagnostics-color=always")   # its standard error is a pipe now
    if cmd.verbose:
        print("ripcc: " + " ".join(args), file=sys.stderr)
    try:
        r = children.run(args, own_group=_not_reading_the_terminal(args),
                         stderr=None if said is None else subprocess.PIPE)
        if said is not None:
            said.write(r.stderr)
        listed = b""                # (nothing to read: as if marked)
        if listing is not None and _regular_file(listing):
            try:
                with open(listing, "rb") as f:
                    listed = f.read()
            except OSError:
                pass
    finally:
        if own is not None:
            _remove_output(own)
            children.forget_file(own)
    return r.returncode, _may_hold_async(listed, cmd.args), bool(listed)


def _may_hold_async(listed, args):
    """Whether a compile that read the files of dependency list `listed`
    (make's syntax) with flags `args` could have seen RIP_ASYNC's mark.

        _may_hold_async(b"z.o: z.c /usr/include/stdio.h", ["-O2"]) -> False
        _may_hold_async(b"s.o: s.c include/rip.h", [])              -> True

    launcher/ripcc.c's may_hold_async decides the same: change both.
    """
    if not listed or any("rip_async" in a for a in args):
        return True
    rule = listed.replace(b"\\\n", b" ").split(b"\n", 1)[0]
    _, colon, deps = rule.partition(b": ")
    if not colon:
        return True
    for name in re.split(rb"(?<!\\)\s+", deps.strip()):
        path = name.replace(b"\\ ", b" ").replace(b"\\#", b"#").replace(b"$$", b"$")
        if os.path.basename(path) == b"rip.h":
            return True
        if os.fsdecode(path) == FRAME_HEADER:
            continue
        if not _regular_file(path):     # a FIFO would never end a read: ripped, which
            return True                 # knows what to do with one
        try:
            with open(path, "rb") as f:
                if b"rip_async" in f.read():
                    return True
        except OSError:
            return True
    return False


def _copy_into(path, device):
    """The bytes of file `path` written to `device` (a -MF /dev/stdout)."""
    try:
        with open(path, "rb") as f, open(device, "wb") as out:
            out.write(f.read())
    except OSError as e:
        raise Diagnostic("", 0, 0, "cannot write the dependency list to %s: %s"
                         % (device, e.strerror))


def _regular_file(path):
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _quietly(cmd, args):
    """_run, its standard error dropped (gcc -w still prints some notes of
    the warnings it silences)."""
    if cmd.verbose:
        print("ripcc: " + " ".join(args), file=sys.stderr)
    try:
        return children.run(args, stderr=subprocess.DEVNULL).returncode
    except (Diagnostic, OSError):
        return 1


# Flags of a compile whose files the plain compile of _as_cc_says must not
# write again or whose words it must not repeat: dependency files, kept
# temporaries, the commands shown.
_NOT_FOR_THE_PLAIN_COMPILE = ("-M", "-save-temps", "-v", "-###")


def _as_cc_says(cmd, status, said, args, src, lang, stop, out, tmp, n):
    """cc printed something about the ripped text (`said`, translated;
    `status` its compile's): print what cc says of the user's own source
    instead, and end as it ends.  The ripped text is preprocessed C, where
    gcc no longer knows which tokens came from a macro, so a warning it
    spares a macro's expansion (-Waddress on `SET(arr, 1)`, -Wbool-compare,
    -Wtautological-compare...) would fire, and with -Werror fail a build cc
    passes.  So the source is compiled as cc would compile it (rip.h as the
    ucontext build sees it), into a temporary output: its messages and
    status are the build's.  The object is still the ripped one: compiled
    again with -Wno-error when only its warnings failed it.  An error in
    the ripped text alone (a ripper bug) is shown as it was, translated."""
    plain = [a for a in cmd.without_inputs() if not a.startswith(_NOT_FOR_THE_PLAIN_COMPILE)]
    plain = [a for a, prev in zip(plain, [None] + plain) if prev not in ("-MF", "-MT", "-MQ")]
    scratch = [] if stop == ["-fsyntax-only"] else \
        ["-o", os.path.join(tmp, "%d-plain.%s" % (n, "s" if stop == ["-S"] else "o"))]
    if wants_color(cmd.args, sys.stderr):
        plain.append("-fdiagnostics-color=always")
    try:
        r = children.run(compiler() + ["-I", runtime.INCLUDE, "-DRIP_BACKEND_UCONTEXT"] + plain +
                         stop + lang + [src] + scratch, stderr=subprocess.PIPE)
    except (Diagnostic, OSError):
        r = None
    if r is None or (status != 0 and r.returncode == 0 and
                     _quietly(cmd, args + ["-Wno-error", "-w"]) != 0):
        sys.stderr.buffer.write(said)   # cc cannot be asked, or the ripped text alone is wrong
        sys.stderr.buffer.flush()
        return status if r is None or status else 1
    sys.stderr.buffer.write(r.stderr)
    sys.stderr.buffer.flush()
    if r.returncode != 0:
        _remove_output(out)
    return r.returncode


# What ripper's output starts with (cli.py's prologue, after emit.py's
# marker of the user's file on the first line).
RIPPED_PROLOGUE = b"/* Ripped by ripper "
# A linemarker naming a header rip.h (the runtime's, as the markers spell it).
_RIP_H_MARKER = re.compile(rb'^# \d+ "(?:[^"\n]*/)?rip\.h"', re.M)


def _preprocessed_kind(text):
    """How the rip backend builds preprocessed C (a .i): "ripped", ripper's
    own output (-save-temps' NAME.rip.i), compiled as it is; "unmarked",
    rip.h preprocessed without __RIPPER__ (plain cc -E), where RIP_ASYNC
    left nothing and which functions are async is lost; else "rip".

        _preprocessed_kind(<cc -E -D__RIPPER__ of a file including rip.h>) -> "rip"
        _preprocessed_kind(<cc -E of it>)                                 -> "unmarked"
    """
    first, _, rest = text.partition(b"\n")
    if text.startswith(RIPPED_PROLOGUE) or (first.startswith(b"# 1 ") and
                                            rest.startswith(RIPPED_PROLOGUE)):
        return "ripped"
    if b'annotate("rip_async")' not in text and _RIP_H_MARKER.search(text):
        return "unmarked"
    return "rip"


def recorded_flags(flags):
    """The compile's flags as a rip again at the link takes them: less
    what only shows or keeps this compile's work (-v, -save-temps)."""
    return [f for f in flags if f not in ("-v", "-###") and not f.startswith("-save-temps")]


def _place(diagnostic):
    return "%s:%d:%d" % (diagnostic.path, diagnostic.line, diagnostic.col)


def rip_again_one(cmd, record, also_async, out, lib_flags):
    """Rip an object's source again from its record (wholeprogram.py), in
    the folder it was compiled in, with the functions `also_async` ({name:
    the object it is async in}) async, and compile it into `out`.  Prints
    the warnings the compile did not; raises Diagnostic if it fails."""
    from . import wholeprogram
    here = os.getcwd()
    try:
        os.chdir(record["cwd"])
    except OSError as e:
        raise Diagnostic("", 0, 0, "cannot rip %s again in %s: %s"
                         % (record["source"], record["cwd"], e.strerror))
    try:
        source, flags = record["source"], record["flags"]
        try:
            with open(source, "rb") as f:
                text = f.read()
        except OSError as e:
            raise Diagnostic("", 0, 0, "cannot read %s: %s" % (source, e.strerror))
        if cmd.verbose:
            print("ripcc: ripper %s --posix --also-async=%s %s -o (ripped text)" % (
                " ".join(lib_flags + compile_flags(flags)), ",".join(sorted(also_async)),
                source), file=sys.stderr)
        warnings, files, stats = [], [], []
        budget = record.get("max_frame")
        if budget is None:
            budget = cmd.max_frame      # (the link's own, for objects compiled without)
        try:
            ripped = rip_source_reporting(source, text, lib_flags + compile_flags(flags),
                                          record["all_async"], stats, seconds=record["seconds"],
                                          blocking_mode=record["blocking"], warnings=warnings,
                                          posix=True, also_async=also_async, files=files,
                                          preprocessed=source.endswith(".i"))
            over = over_budget(stats, budget)
            if over:                    # a function async now may need more frame
                raise over[0].with_others(over[1:])
        except Diagnostic as d:         # printed here, where its file's path means it
            report(d, flags)
            raise Diagnostic("", 0, 0, "ripping %s again for the link, with %s async, failed "
                             "(above)" % (source, ", ".join("'%s' (ripped in %s)" % kv
                                                            for kv in sorted(also_async.items()))))
        before = [f for f, _ in record["files"]]
        if files != before:             # an include path that differs (CPATH...): not the same C
            raise Diagnostic("", 0, 0, "ripping %s again for the link read other files than "
                             "its compile: %s, not %s" % (source, ", ".join(files),
                                                          ", ".join(before)),
                             hint="link in the environment the objects were compiled in, or "
                             "compile them again")
        print_warnings([w for w in warnings if _place(w) not in record["warned"]], flags)
        path = out[:-2] + ".i"
        with open(path, "wb") as f:
            f.write(ripped + wholeprogram.record_asm(record).encode())
        status = _run_ripped(cmd, record["cc"] + lib_flags + without_preprocessor_flags(flags) +
                             ["-c", path, "-o", out], ripped, flags)
        if status:
            raise Diagnostic("", 0, 0, "compiling %s, ripped again for the link, failed"
                             % source)
    finally:
        os.chdir(here)


def tasks_own_thread_locals(cmd, src, out, cc, include, tmp, n):
    """--posix on ucontext, `out` compiled from `src` defining or using a
    thread-local variable, which every task on the OS thread would share:
    compile `src` again into `out`, ripped with --posix-tls-only (each
    task its own copy, as --posix gives on rip; nothing else changes).
    `include`: the flags the compile added (the library's, the backend's,
    rip.h's folder, -include rip_posix_built.h)."""
    flags = cmd.without_inputs()
    try:
        text = open(src, "rb").read()
    except OSError as e:
        raise Diagnostic("", 0, 0, "cannot read %s: %s" % (src, e.strerror))
    if cmd.verbose:
        print("ripcc: ripper --posix-tls-only %s %s -o (ripped text)"
              % (" ".join(include + compile_flags(cmd.args)), src), file=sys.stderr)
    ripped = rip_source_reporting(src, text, include + compile_flags(cmd.args),
                                  seconds=getattr(cmd, "seconds", None), posix=TLS_ONLY)
    path = os.path.join(tmp, "%d-%s.i" % (n, _stem(src)))
    if cmd.save_temps:
        path = _stem(src) + ".rip.i"
    with open(path, "wb") as f:
        f.write(ripped)
    return _run_ripped(cmd, cc + without_preprocessor_flags(flags) + ["-c", path, "-o", out],
                       ripped, cmd.args)


_TLS_DECL = r"\b(?:__thread|_Thread_local|thread_local)\b[^;]*?\b(%s)\b"


def thread_local_symbols(obj):
    """The thread-local variables object `obj` defines or uses, by name
    (none if readelf cannot say).

        thread_local_symbols("tls.o") -> ["counter", "name"]"""
    try:
        r = children.run(["readelf", "-sW", obj], capture_output=True)
    except OSError:
        return []                   # no readelf: no check
    names = []
    for line in r.stdout.decode("utf-8", "replace").splitlines():
        parts = line.split()
        if len(parts) >= 8 and parts[3] == "TLS" and parts[7] not in names:
            names.append(parts[7])
    return names


def refuse_thread_locals(src, obj):
    """--posix on ucontext: a __thread variable is the OS thread's, which
    every task shares, not one per thread as the program means; refuse
    object `obj` (compiled from `src`, its own thread-locals already made
    per task) if it still defines or uses one (a system header's), naming
    it, where the source declares it if it can be found there."""
    names = thread_local_symbols(obj)
    if not names:
        return
    name, line, col = names[0], 0, 0
    try:
        text = open(src, "rb").read().decode("utf-8", "replace")
    except OSError:
        text = ""
    m = re.search(_TLS_DECL % re.escape(name), text)
    path = src
    if m:
        line = text.count("\n", 0, m.start(1)) + 1
        col = m.start(1) - (text.rfind("\n", 0, m.start(1)) + 1) + 1
    raise Diagnostic(path, line, col, "thread-local variable '%s' under --posix on the ucontext "
                     "backend, where every task shares the OS thread's copy" % name,
                     "give the source as a file, whose thread-locals ripcc makes per task"
                     if src == "-" else "ripcc makes the file's own thread-locals per task, "
                     "not a system header's: build with --backend=threads")


def _depend_flags(cmd, src, out):
    """The dependency-file flags for compiling `src` into `out`, written out
    as cc would default them: the file named for the object (.d), the
    object as the target.  (launcher/ripcc.c's user_depend writes them the same way:
    change both.)"""
    flags = list(cmd.depend)
    if "-MF" not in flags:
        flags += ["-MF", os.path.splitext(out if cmd.stop and out else
                                          (cmd.output or _stem(src)))[0] + ".d"]
    if "-MT" not in flags and "-MQ" not in flags:
        flags += ["-MT", out if cmd.stop and out else (cmd.output or _stem(src) + ".o")]
    return flags


def _stem(src):
    return "-" if src == "-" else os.path.splitext(os.path.basename(src))[0]


def _output(cmd):
    return ["-o", cmd.output] if cmd.output else []


def _run(cmd, args):
    if cmd.verbose:
        print("ripcc: " + " ".join(args), file=sys.stderr)
    return children.run(args, own_group=_not_reading_the_terminal(args)).returncode


def _run_ripped(cmd, args, ripped, flags, said=None):
    """_run for the compile of ripped text `ripped`: cc's messages about it
    in the user's columns and names (ccmessages.py), in colour as cc would
    have written them to this standard error (`flags`: the user's), or
    into `said` (a binary file) when one is given."""
    from . import ccmessages
    if wants_color(flags, sys.stderr):
        args = args + ["-fdiagnostics-color=always"]    # its standard error is a pipe now
    if cmd.verbose:
        print("ripcc: " + " ".join(args), file=sys.stderr)
    sys.stderr.flush()
    p = children.spawn(args, own_group=_not_reading_the_terminal(args), stderr=subprocess.PIPE)
    try:
        ccmessages.translate(p.stderr, ripped, sys.stderr.buffer if said is None else said,
                             _columns(flags))
        p.stderr.close()
        p.wait()
    except BaseException:
        children.end(p)
        raise
    children.untrack(p.pid)
    return p.returncode


def _columns(flags):
    """How cc counts columns, by its flags (ccmessages.Columns):
    -ftabstop=N, -fdiagnostics-column-unit=byte|display,
    -fdiagnostics-column-origin=N (the last of each wins)."""
    from . import ccmessages
    stop, display, origin = 8, True, 1
    for f in flags:
        name, _, value = f.partition("=")
        if name == "-ftabstop" and value.isdigit() and 0 < int(value) <= 100:
            stop = int(value)
        elif name == "-fdiagnostics-column-unit":
            display = value != "byte"
        elif name == "-fdiagnostics-column-origin" and value.isdigit():
            origin = int(value)
    return ccmessages.Columns(stop, display, origin)


def _not_reading_the_terminal(args):
    """False if cc reads source from a terminal on standard input: then it
    must stay in the terminal's foreground group (in a group of its own it
    would be stopped, SIGTTIN), where ^C reaches it anyway."""
    return "-" not in args or not os.isatty(0)


def _run_cc(args):
    try:
        return children.run(compiler() + list(args)).returncode
    except Diagnostic as d:
        print("ripcc: error: " + d.message, file=sys.stderr)
        return 1


def print_build_info(backend, asked, sanitize=()):
    """--print-include-dir, --cflags, --libs: for build systems that compile
    against the runtime themselves (ucontext and threads need no ripping);
    `sanitize`: the runtime's sanitizers (the command's -fsanitize=)."""
    try:
        library, lib_flags = runtime.library(backend, compiler(), sanitize)
    except Diagnostic as d:
        print("ripcc: error: " + d.message, file=sys.stderr)
        return 1
    for a in asked:
        if a == "--print-include-dir":
            _print(runtime.INCLUDE)
        elif a == "--cflags":
            _print(" ".join(["-I" + runtime.INCLUDE] + lib_flags + backend_flags(backend)))
        else:
            _print(" ".join([library, "-pthread"]))
    return 0


def _print(text):
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:             # ripcc --help | head
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _usage_error(message):
    print("ripcc: error: %s\n(ripcc --help-ripcc for ripcc's own options)" % message,
          file=sys.stderr)
    return 2


# -- --equiv ------------------------------------------------------------------

def equiv_verdicts(results):
    """Verdict per backend from {backend: (exit status, stdout bytes)}; a
    "plain" entry (--posix: the program built by cc alone) is judged as
    threads is."""
    ref_status, ref_out = results["rip"]
    verdicts = {"rip": "reference"}
    for backend in ("ucontext", "threads", "plain"):
        if backend not in results:
            continue
        status, out = results[backend]
        if status != ref_status:
            verdicts[backend] = "DIFFERENT exit status"
        elif out == ref_out:
            verdicts[backend] = "same"
        elif backend in ("threads", "plain") and \
                sorted(out.splitlines()) == sorted(ref_out.splitlines()):
            verdicts[backend] = "same lines, other order"
        else:
            verdicts[backend] = "DIFFERENT output"
    return verdicts


def equiv_main(argv):
    """ripcc --equiv: build three ways, run, compare."""
    prog_args = []
    if "--" in argv:
        i = argv.index("--")
        argv, prog_args = argv[:i], argv[i + 1:]
    if any(a == "-o" or a.startswith("--backend") for a in argv):
        print("ripcc: error: --equiv picks the backends and outputs itself", file=sys.stderr)
        return 2
    results = {}
    builds = BACKENDS + (("plain",) if "--posix" in argv else ())
    with children.temporary_folder("ripcc-equiv-") as tmp:
        for backend in builds:
            exe = os.path.join(tmp, backend)
            if backend == "plain":      # the program as its author builds it
                status = _run_cc(blocking.without_flags(
                    [a for a in argv if a != "--posix"]) + ["-pthread", "-o", exe])
            else:
                status = main(["--backend=" + backend] + argv + ["-o", exe])
            if status != 0:
                print("ripcc: error: the %s build failed" % backend, file=sys.stderr)
                return 1
            try:
                r = children.run([exe] + prog_args, capture_output=True, timeout=600,
                                 env={k: v for k, v in os.environ.items() if k != COMPILING})
            except subprocess.TimeoutExpired:
                print("ripcc: error: the %s build ran for more than 600 s" % backend,
                      file=sys.stderr)
                return 1
            results[backend] = (r.returncode, r.stdout)
    verdicts = equiv_verdicts(results)
    print("%-9s %6s %12s  %s" % ("backend", "exit", "stdout bytes", "verdict"))
    for backend in builds:
        status, out = results[backend]
        print("%-9s %6d %12d  %s" % (backend, status, len(out), verdicts[backend]))
    ok = not any(v.startswith("DIFFERENT") for v in verdicts.values())
    print("equivalent" if ok else "NOT equivalent")
    return 0 if ok else 1
