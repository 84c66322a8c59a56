"""real_libs.py -- ripper --all-async held against real C libraries nobody
here wrote.

Each library is built with a driver as one translation unit, plain with the
user's compiler ($RIPCC_CC, default cc) and with every function ripped by
`ripcc --all-async`, and both builds run the same workloads: exit status
and stdout must match.  One translation unit, because a ripped function
calls the plain definitions of functions other files define: built file by
file, a library's own code would hardly ever run ripped.  Calls through
plain function pointers reach plain definitions too; zlib dispatches its
deflate strategies through a table, so the unity copy calls the same
functions by name, and Lua's driver calls the script with lua_call (a
protected call runs plain: luaD_rawrunprotected uses setjmp).

Inputs come from package registries, fetched once into build/reallibs/src
by their own clients (apt-get when running as root, pip download, npm pack,
cargo fetch), pinned:

    zlib 1.2.11   the copy in Debian's gcc-12-source (the torture tests' package):
                  test/example.c, and minigzip round trips at every level
    Lua 5.4.8     the copy in lupa 2.8's sdist on PyPI: Lua's test suite (testes/)
                  through fuzz/reallibs/lua_unprotected.c, and all.lua through
                  Lua's own interpreter
    stb_image     Debian's libstb-dev: fuzz/reallibs/stbi_decode.c on images made
                  by Debian's imagemagick (PNG, JPEG baseline and progressive,
                  GIF, BMP, TGA, PSD, HDR, PNM) and by this script
    jsmn 1.1.0    Debian's libjsmn-dev: fuzz/reallibs/jsmn_dump.c on JSON made
                  here, plain, strict and with parent links
    SQLite 3.52.0 sqlite3.c and shell.c of the autoconf tarball in npm's sqlite3
                  6.0.1 (deps/), one unit with FTS5, R*Tree, geopoly and the math
                  functions: the shell's main runs sqlite_create.sql on a new WAL
                  database, then sqlite_reopen.sql on the file it left, then .dump;
                  and the plain build dumps the ripped build's file; all of it
                  again built as written with ripcc --posix
    lz4 1.9.4     lz4libs/ of PyPI's lz4 4.4.5 sdist (lz4, lz4hc, lz4frame, xxhash
                  0.6): fuzz/reallibs/lz4_roundtrip.c, block, HC, streaming and
                  frame round trips
    xxHash 0.8    deps/xxhash of PyPI's xxhash 4.1.0 sdist: xxhash_sums.c, XXH32,
                  XXH64, XXH3 one-shot and streamed (SSE2 and scalar builds, and
                  one with its pure/const attributes made `unused`: all ripped)
    bzip2 1.0.8   the release tree crates.io's bzip2-sys 0.1.13+1.0.8 carries:
                  bzip2's own program, its samples and files made here
    yyjson 0.10.0 yyjson/ of PyPI's yyjson 4.0.6 sdist: yyjson_dump.c, reading
                  under several flags, writing, editing, JSON pointers
    picohttpparser at upstream commit 066d2b1, as PyPI's pypicohp 0.1.3 carries
                  it: pico_parse.c on requests, responses, header blocks and
                  chunked bodies made here, whole and byte by byte (plain and
                  -msse4.2 builds)

    python fuzz/real_libs.py [--only zlib,lua,...] [--keep DIR]

Prints a line per workload (match, wrong, crash, no-compile, refused or
skip, with the first differing output), and per library what --all-async
said (how many functions it ripped, and those it left plain, named and
grouped by why), ripcc's errors when the ripped build fails (no-compile:
the compiler rejects ripper's text; refused: ripper itself said no), and
the time and peak memory of ripcc against the plain compile.  Exit status
1 unless every workload matches.  Workloads whose plain output changes from
run to run (timings, random seeds) are compared by exit status alone.
"""
import argparse
import glob
import json
import os
import random
import re
import shutil
import struct
import sys
import tarfile
import tempfile
import time
import zlib as pyzlib

from difftest import RIPCC, ROOT, run_limited
from ripper.cli import runtime_library
from ripper.preprocess import compiler

CACHE = os.path.join(ROOT, "build", "reallibs")
RIPPER = os.path.join(os.path.dirname(RIPCC), "ripper")
DRIVERS = os.path.join(ROOT, "fuzz", "reallibs")
GCC_TARBALLS = "/usr/src/gcc-1[0-9]/gcc-*.tar.xz"
LUPA = "lupa==2.8"
BUILD_SECONDS = 900
RUN_SECONDS = 120
# Outputs differ: the plain build runs this many times more, and output
# that changes in any of them is random, not ripper's (one random bit
# passes a single rerun half the time: constructs.lua's did).
VARY_RUNS = 4


class Skip(Exception):
    """An input this machine cannot have: the library is skipped."""


# -- inputs -----------------------------------------------------------------

def apt_install(packages, check):
    """Install Debian `packages` unless `check()` already holds; Skip when
    they cannot be had."""
    if check():
        return
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise Skip("needs %s (apt-get install as root)" % " ".join(packages))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-qq"] + packages
    if run_limited(cmd, 900, env=env).status != 0:
        run_limited(["apt-get", "update", "-qq"], 900, env=env)
        run_limited(cmd, 900, env=env)
    if not check():
        raise Skip("apt-get install %s failed" % " ".join(packages))


def extracted(name, fill):
    """CACHE/src/NAME, made once by fill(tmpdir) (which leaves the tree in
    tmpdir/NAME)."""
    folder = os.path.join(CACHE, "src", name)
    if os.path.isdir(folder):
        return folder
    os.makedirs(os.path.dirname(folder), exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="extract-", dir=os.path.dirname(folder))
    try:
        fill(tmp)
        try:
            os.rename(os.path.join(tmp, name), folder)
        except OSError:
            if not os.path.isdir(folder):   # not made meanwhile by another run
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return folder


def zlib_source():
    apt_install(["gcc-12-source"], lambda: bool(glob.glob(GCC_TARBALLS)))
    tarball = sorted(glob.glob(GCC_TARBALLS))[-1]
    top = re.sub(r"(-dfsg)?\.tar\.xz$", "", os.path.basename(tarball))

    def fill(tmp):
        r = run_limited(["tar", "-xJf", tarball, "-C", tmp, "--wildcards", top + "/zlib/*"], 900)
        if r.status:
            raise Skip("cannot extract zlib from %s" % tarball)
        os.rename(os.path.join(tmp, top, "zlib"), os.path.join(tmp, "zlib"))
    return extracted("zlib", fill)


def lua_source():
    def fill(tmp):
        r = run_limited([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                         "--no-binary", ":all:", LUPA, "-d", tmp], 900)
        sdists = glob.glob(os.path.join(tmp, "lupa-*.tar.gz"))
        if r.status or not sdists:
            raise Skip("pip download %s failed: %s" % (LUPA, r.stderr.decode()[-300:]))
        with tarfile.open(sdists[0]) as t:
            members = [m for m in t.getmembers() if "/third-party/lua54/" in m.name]
            t.extractall(tmp, members)
        found = glob.glob(os.path.join(tmp, "lupa-*", "third-party", "lua54"))
        if not found:
            raise Skip("%s's sdist has no third-party/lua54" % LUPA)
        os.rename(found[0], os.path.join(tmp, "lua"))
    return extracted("lua", fill)


# -- building and comparing -------------------------------------------------

def plain_cc():
    """The user's compiler, with the flags ripcc gives its builds (the
    sanitizers under RIP_SAN=1), so that both builds differ only in ripping."""
    return compiler() + runtime_library("rip")[1]


# ripper's flags for a library's ripped build: every function ripped, or
# the program as written under POSIX mode (its -Wblocking notes are what
# --posix does not handle yet, not verdicts)
ALL_ASYNC = ["--all-async"]
POSIX = ["--posix", "-Wno-blocking"]
# POSIX mode's run-time catch says once per call that plain code (a VFS
# method called through a pointer) waited on the offload pool: not output
CAUGHT = re.compile(rb"^rip: warning: '\w+' was called in a task by code ripper did not rip.*\n",
                    re.M)


class Library:
    """One library: builds plain and ripped, and the verdicts of its workloads."""

    def __init__(self, name, work):
        self.name = name
        self.work = work
        self.results = []       # (workload, verdict, detail)
        self.notes = []         # what --all-async said, timings
        self.failures = []      # (build, ripcc's whole stderr) of no-compiles

    def build(self, label, source, flags, libs=(), measure_ripper=False, mode=ALL_ASYNC):
        """(plain exe, ripped exe) of `source`, or None when the ripped one
        does not build (recorded as no-compile).  Both compile with -c and
        link apart (ripcc puts -l flags before its ripped sources); the
        compiles' time and peak memory go into the notes, and with
        `measure_ripper` those of ripper alone (the ripped text, no compile).
        `mode`: ripper's flags (ALL_ASYNC, or POSIX: the program as it is,
        its C library calls made resume points)."""
        plain = os.path.join(self.work, label + "-plain")
        ripped = os.path.join(self.work, label + "-ripped")
        shown = " ".join(mode[:1])
        r, cc_cost = measured(plain_cc() + flags + ["-c", source, "-o", plain + ".o"])
        if r.status == 0:
            r = run_limited(plain_cc() + [plain + ".o", "-o", plain] + list(libs), BUILD_SECONDS)
        if r.status:
            raise Skip("the plain build of %s fails:\n%s" % (label, r.stderr.decode()[-1500:]))
        report = ["-v"] if mode == ALL_ASYNC else []    # -v: what --all-async ripped, left plain
        r, rip_cost = measured([RIPCC] + list(mode) + report + flags
                               + ["-c", source, "-o", ripped + ".o"])
        self.notes.extend("%s: %s" % (label, l) for l in all_async_report(r.stderr))
        self.notes.append("%s: ripcc %s -c %s; plain cc -c %s" % (label, shown, rip_cost, cc_cost))
        ripper = None
        if measure_ripper:
            ripper, ripper_cost = measured([RIPPER] + list(mode) + flags
                                           + [source, "-o", ripped + "-ripped.c"])
            self.notes.append("%s: ripper %s alone (the ripped text) %s"
                              % (label, shown, ripper_cost))
        if r.status == 0:
            r = run_limited([RIPCC] + [f for f in mode if f == "--posix"] +
                            [ripped + ".o", "-o", ripped] + list(libs), BUILD_SECONDS)
        if r.status:
            # refused: ripper said why; no-compile: the compiler rejects its text
            if ripper is None:
                ripper = run_limited([RIPPER] + list(mode) + flags
                                     + [source, "-o", ripped + "-ripped.c"], BUILD_SECONDS)
            verdict = "refused" if ripper.status else "no-compile"
            self.results.append((label, verdict, first_error(r.stderr)))
            self.failures.append((label, r.stderr.decode(errors="replace")))
            return None
        return plain, ripped

    def compare(self, label, exes, args, cwd=None, seconds=RUN_SECONDS):
        """Run both builds with `args`; record the verdict."""
        plain, ripped = exes
        cwd = cwd or self.work
        a = run_limited([plain] + args, seconds, cwd=cwd)
        if a.timed_out:
            self.results.append((label, "skip", "the plain build ran past %d s" % seconds))
            return
        b = run_limited([ripped] + args, seconds * 6, cwd=cwd)
        if b.timed_out:
            self.results.append((label, "wrong", "the ripped build ran past %d s" % (seconds * 6)))
        elif b.status != a.status and (b.status < 0 or b.status > 128):    # a signal
            self.results.append((label, "crash", "status %d, plain %d: %s" % (
                b.status, a.status, first_error(b.stderr))))
        elif a.status != b.status:
            self.results.append((label, "wrong", "status %d, plain %d" % (b.status, a.status)))
        elif a.stdout == b.stdout:
            self.results.append((label, "match", ""))
        elif any(run_limited([plain] + args, seconds, cwd=cwd).stdout != a.stdout
                 for _ in range(VARY_RUNS)):
            self.results.append((label, "match", "status only: the output varies run to run"))
        else:
            self.results.append((label, "wrong", first_difference(a.stdout, b.stdout)))


def all_async_report(stderr):
    """What ripcc --all-async said: how many functions it ripped, and the
    ones it left plain, each named, grouped by why ('F' in a reason stands
    for the function's own name)."""
    counts, plain = [], {}
    for line in stderr.decode(errors="replace").splitlines():
        m = re.search(r"--all-async: (.*)", line)
        if m:
            counts.append(m.group(1))
        m = re.search(r"left plain: (\w+): (.*)", line)
        if m:
            name, why = m.groups()
            plain.setdefault(why.replace("'%s'" % name, "F"), []).append(name)
    return (counts or ["(no --all-async report)"]) + [
        "left plain, %s: %s" % (why, ", ".join(names)) for why, names in sorted(plain.items())]


# Runs argv[2:], and writes to argv[1] its wall time and the peak resident
# memory of the largest process in its tree.  A child subreaper, so that
# processes left to exit on their own (ripper rips in a forked child it does
# not wait for) are reaped here and counted.
MEASURE = r"""
import ctypes, os, resource, subprocess, sys, time
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)    # PR_SET_CHILD_SUBREAPER
start = time.monotonic()
status = subprocess.call(sys.argv[2:])
seconds = time.monotonic() - start
try:
    while True:
        os.wait()
except ChildProcessError:
    pass
with open(sys.argv[1], "w") as f:
    f.write("%.1f %d" % (seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(status if status >= 0 else 128 - status)
"""


def measured(cmd):
    """(Ran, "T s, peak M MB") of `cmd`: its time, and the peak resident
    memory of the largest process it ran (Linux's ru_maxrss)."""
    fd, report = tempfile.mkstemp(prefix="real-libs-time-")
    os.close(fd)
    try:
        r = run_limited([sys.executable, "-c", MEASURE, report] + cmd, BUILD_SECONDS)
        with open(report) as f:
            words = f.read().split()
    finally:
        os.unlink(report)
    try:
        return r, "%s s, peak %d MB" % (words[0], int(words[1]) // 1024)
    except (IndexError, ValueError):
        return r, "(not measured)"


def compare_runs(lib, label, exes, steps, seconds=RUN_SECONDS, stderr_noise=None):
    """Run each build through `steps` [(name, args, stdin path)] in a fresh
    folder of its own (later steps see the files earlier ones left there);
    a verdict per step, named label + name, from exit status, stdout and
    stderr (SQLite's error messages are part of its answers).  The steps
    change state, so differing output is never put down to randomness by
    reruns."""
    folders = []
    for exe in exes:
        folder = os.path.join(lib.work, "%s-runs-%s" % (label, os.path.basename(exe)))
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        folders.append(folder)
    for name, args, stdin in steps:
        a, b = (run_limited([exe] + args, seconds * (1 if exe == exes[0] else 6), cwd=folder,
                            stdin=stdin) for exe, folder in zip(exes, folders))
        what = "%s %s" % (label, name)
        if a.timed_out:
            lib.results.append((what, "skip", "the plain build ran past %d s" % seconds))
        elif b.timed_out:
            lib.results.append((what, "wrong", "the ripped build ran past %d s" % (seconds * 6)))
        elif b.status != a.status and (b.status < 0 or b.status > 128):
            lib.results.append((what, "crash", "status %d, plain %d: %s" % (
                b.status, a.status, first_error(b.stderr))))
        elif a.status != b.status:
            lib.results.append((what, "wrong", "status %d, plain %d: %s" % (
                b.status, a.status, first_error(b.stderr))))
        elif a.stdout != b.stdout:
            lib.results.append((what, "wrong", first_difference(a.stdout, b.stdout)))
        elif a.stderr != (b.stderr if stderr_noise is None else stderr_noise.sub(b"", b.stderr)):
            lib.results.append((what, "wrong", "on stderr: " + first_difference(a.stderr, b.stderr)))
        else:
            lib.results.append((what, "match", ""))
    return folders


def first_error(stderr):
    lines = stderr.decode(errors="replace").splitlines()
    errors = [l for l in lines if re.search(r"\berror\b", l) and "left plain:" not in l]
    return (errors or lines or [""])[0][:300]


def compile_errors(stderr, most=20):
    """The distinct errors in a compiler's or ripper's `stderr`, each after
    the function it is in: "In function 'f': file:line:col: error: ..."."""
    said, where = [], ""
    for line in stderr.splitlines():
        m = re.search(r"In function .(\w+).", line)
        if m:
            where = "in %s: " % m.group(1)
        elif ": error:" in line:
            text = where + line.strip()
            if text not in said:
                said.append(text)
    return said[:most] + (["... %d more" % (len(said) - most)] if len(said) > most else [])


def first_difference(plain, ripped):
    a = plain.decode(errors="replace").splitlines()
    b = ripped.decode(errors="replace").splitlines()
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "line %d: plain %r, ripped %r" % (i + 1, x[:120], y[:120])
    return "plain prints %d lines, ripped %d" % (len(a), len(b))


def write_files(folder, files):
    """Write {name: bytes} into folder; their paths."""
    paths = []
    for name, data in files.items():
        path = os.path.join(folder, name)
        with open(path, "wb") as f:
            f.write(data)
        paths.append(path)
    return paths


def rewrite(path, change):
    """Replace the text of the file at path by change(text)."""
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(change(text))


def unity(path, includes, define="", before=None):
    """A file that #includes each of `includes` (one translation unit), with
    before[include] (a #define renaming what it defines again) ahead of it."""
    before = before or {}
    with open(path, "w") as f:
        f.write(define + "".join('%s#include "%s"\n' % (before.get(i, ""), i) for i in includes))
    return path


# -- zlib -------------------------------------------------------------------

# In this order: inftrees.h makes `code` a type (a parameter's name in trees.c),
# and gzguts.h (which zutil.c includes) defines COPY, a value of inflate.h's enum.
ZLIB_LIB = ["adler32", "crc32", "deflate", "trees", "compress", "uncompr", "inflate", "infback",
            "inffast", "inftrees", "zutil", "gzclose", "gzlib", "gzread", "gzwrite"]
ZLIB_UNGUARDED = ["gzguts.h", "inftrees.h", "inflate.h", "inffast.h", "trees.h", "crc32.h",
                  "deflate.h"]
ZLIB_DISPATCH = "(*(configuration_table[s->level].func))(s, flush)"


def zlib_unity_copy(source, dest):
    """zlib's sources, made fit to be #included into one file: include
    guards on the headers that lack them, infback.c's fixedtables renamed,
    and deflate's strategies called by name rather than through the table
    (a plain function pointer: they would run plain)."""
    shutil.copytree(source, dest)
    for h in ZLIB_UNGUARDED:
        guard = "REAL_LIBS_" + re.sub(r"\W", "_", h).upper()
        rewrite(os.path.join(dest, h),
                lambda text: "#ifndef %s\n#define %s\n%s\n#endif\n" % (guard, guard, text))
    rewrite(os.path.join(dest, "infback.c"),
            lambda text: text.replace("fixedtables", "fixedtables_back"))
    direct = ("(configuration_table[s->level].func == deflate_fast ? deflate_fast(s, flush) : "
              "configuration_table[s->level].func == deflate_slow ? deflate_slow(s, flush) : "
              "configuration_table[s->level].func == deflate_stored ? deflate_stored(s, flush) : "
              + ZLIB_DISPATCH + ")")

    def call_by_name(text):
        if ZLIB_DISPATCH not in text:
            raise Skip("deflate.c has no `%s` to call by name" % ZLIB_DISPATCH)
        return text.replace(ZLIB_DISPATCH, direct)
    rewrite(os.path.join(dest, "deflate.c"), call_by_name)


def zlib_inputs(folder):
    rnd = random.Random(11)
    files = {
        "random.bin": bytes(rnd.getrandbits(8) for _ in range(200000)),
        "text.txt": "".join(rnd.choice(["the ", "quick ", "brown ", "fox\n", "jumps ", "over "])
                            for _ in range(150000)).encode(),
        "zeros.bin": bytes(600000),
        "empty": b"",
        "runs.bin": b"".join(bytes([rnd.randrange(4)]) * rnd.randrange(1, 300)
                             for _ in range(3000)),
    }
    return write_files(folder, files)


def run_zlib(lib):
    src = os.path.join(lib.work, "zlib")
    zlib_unity_copy(zlib_source(), src)
    test = os.path.join(src, "test") if os.path.isdir(os.path.join(src, "test")) else src
    flags = ["-O3", "-D_LARGEFILE64_SOURCE=1", "-I", src]
    for driver in ("example", "minigzip", "infcover"):
        if not os.path.exists(os.path.join(test, driver + ".c")):
            continue
        includes = [os.path.join(src, n + ".c") for n in ZLIB_LIB] + \
            [os.path.join(test, driver + ".c")]
        exes = lib.build(driver, unity(os.path.join(lib.work, "zlib_%s.c" % driver), includes),
                         flags)
        if exes is None:
            continue
        if driver != "minigzip":
            lib.compare(driver, exes, [])
            continue
        data = os.path.join(lib.work, "data")
        os.makedirs(data, exist_ok=True)
        for path in zlib_inputs(data):
            name = os.path.basename(path)
            for level in ("-1", "-6", "-9", "-h", "-r", "-f"):
                lib.compare("minigzip %s %s" % (level, name), exes, [level, "-c", path])
            gz = path + ".gz"
            with open(gz, "wb") as f:
                f.write(run_limited([exes[0], "-c", path], RUN_SECONDS).stdout)
            lib.compare("minigzip -d %s.gz" % name, exes, ["-d", "-c", gz])


# -- Lua --------------------------------------------------------------------

LUA_SKIP = {"heavy.lua": "builds strings of gigabytes on purpose"}


def run_lua(lib):
    src = os.path.join(lib.work, "lua")
    shutil.copytree(lua_source(), src)
    testes = os.path.join(src, "testes")
    flags = ["-std=c99", "-O2", "-DLUA_USE_LINUX", "-I", src]
    driver = os.path.join(lib.work, "lua_unprotected.c")
    shutil.copy(os.path.join(DRIVERS, "lua_unprotected.c"), driver)
    exes = lib.build("lua_unprotected", driver, flags + ["-DLUA_USE_JUMPTABLE=0"], ["-lm", "-ldl"])
    if exes is not None:
        for script in sorted(glob.glob(os.path.join(testes, "*.lua"))):
            name = os.path.basename(script)
            if name in LUA_SKIP:
                lib.results.append((name, "skip", LUA_SKIP[name]))
            elif name not in ("all.lua", "main.lua"):   # these two need the interpreter
                lib.compare(name, exes, [name], cwd=testes, seconds=300)
    exes = lib.build("lua", os.path.join(src, "onelua.c"), flags, ["-lm", "-ldl"])
    if exes is not None:
        lib.compare("lua -e _port=true all.lua", exes, ["-e", "_port=true", "all.lua"],
                    cwd=testes, seconds=600)


# -- stb_image --------------------------------------------------------------

STB_HEADER = "/usr/include/stb/stb_image.h"
CONVERT = ["-quality 90 {}.jpg", "-quality 20 -sampling-factor 2x2 {}_420.jpg",
           "-sampling-factor 2x1 {}_422.jpg", "-interlace JPEG {}_progressive.jpg",
           "-colorspace Gray {}_gray.jpg", "-colorspace Gray -interlace JPEG {}_gray_prog.jpg",
           "{}.gif", "-interlace GIF {}_interlaced.gif", "bmp3:{}_24.bmp",
           "-colors 16 -type Palette bmp3:{}_4.bmp", "-colors 200 -type Palette bmp3:{}_8.bmp",
           "-alpha on bmp:{}_32.bmp", "{}.tga", "-compress RLE {}_rle.tga",
           "-colorspace Gray {}_gray.tga", "{}.psd", "-compress RLE {}_rle.psd", "{}.hdr",
           "-colorspace Gray {}.pgm", "-depth 16 {}_16.ppm", "-interlace PNG {}_adam7.png",
           "-colors 50 {}_palette.png", "-depth 16 {}_16.png", "-alpha on {}_rgba.png"]


def png(path, width, height, color_type, depth, pixel):
    """A PNG of the given type.  Each row starts with another filter type
    (0-4) and its bytes are taken as filtered data, so that the decoder's
    unfiltering runs for every type."""
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[color_type]
    rows = []
    for y in range(height):
        row = bytearray([y % 5])
        for x in range(width):
            for c in range(channels):
                v = pixel(x, y, c) % (1 << depth)
                row += struct.pack(">H", v) if depth == 16 else bytes([v])
        rows.append(bytes(row))
    raw = b"".join(rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + \
            struct.pack(">I", pyzlib.crc32(kind + data) & 0xffffffff)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height,
                                                                  depth, color_type, 0, 0, 0))
                + chunk(b"IDAT", pyzlib.compress(raw, 9)) + chunk(b"IEND", b""))


def stb_images(folder):
    """Images for the decoder: made with ImageMagick when it can be had,
    and PNG and PNM files written here in any case."""
    os.makedirs(folder, exist_ok=True)
    try:
        apt_install(["imagemagick"], lambda: os.path.exists("/usr/bin/convert"))
        convert = "/usr/bin/convert"
    except Skip:
        convert = None
    if convert:
        for base, make in (("logo", ["logo:", "-resize", "50%"]), ("rose", ["rose:"]),
                           ("plasma", ["-seed", "7", "-size", "900x700", "plasma:fractal"])):
            source = os.path.join(folder, base + ".png")
            run_limited([convert] + make + [source], 120)
            for spec in CONVERT:
                words = spec.split()
                out = os.path.join(folder, words[-1].format(base))
                if ":" in words[-1]:
                    kind, _, name = words[-1].partition(":")
                    out = "%s:%s" % (kind, os.path.join(folder, name.format(base)))
                run_limited([convert, source] + words[:-1] + [out], 120)
        rose = os.path.join(folder, "rose.png")
        run_limited([convert, "-delay", "10", rose, "(", rose, "-flip", ")", "(", rose, "-flop",
                     ")", os.path.join(folder, "rose_animated.gif")], 120)
    for ct, depth in ((0, 1), (0, 4), (0, 8), (0, 16), (2, 8), (2, 16), (4, 8), (6, 8), (6, 16)):
        png(os.path.join(folder, "made_ct%d_%dbit.png" % (ct, depth)), 37, 23, ct, depth,
            lambda x, y, c: x * 7 + y * 13 + c * 101 + x * y)
    with open(os.path.join(folder, "made.ppm"), "wb") as f:
        f.write(b"P6\n19 11\n255\n" + bytes((i * 37) % 256 for i in range(19 * 11 * 3)))
    files = sorted(glob.glob(os.path.join(folder, "*")))
    # Truncated and garbled copies, for the error paths (not of HDR or PNM:
    # stb_image spins on a truncated HDR, and leaves a cut PNM's pixels unset).
    firsts = [next(p for p in files if p.endswith(ext))
              for ext in (".png", ".jpg", ".gif", ".bmp", ".tga", ".psd")
              if any(p.endswith(ext) for p in files)]
    for path in firsts:
        with open(path, "rb") as f:
            data = f.read()
        for kind, bad in (("cut", data[:len(data) // 3]),
                          ("garbled",
                           data[:64] + bytes(b ^ 0x5a for b in data[64:200]) + data[200:])):
            with open(os.path.join(folder, "%s_%s" % (kind, os.path.basename(path))), "wb") as f:
                f.write(bad)
    return sorted(glob.glob(os.path.join(folder, "*")))


def run_stb(lib):
    apt_install(["libstb-dev"], lambda: os.path.exists(STB_HEADER))
    exes = lib.build("stbi_decode", os.path.join(DRIVERS, "stbi_decode.c"),
                     ["-O2", "-I", os.path.dirname(STB_HEADER)], ["-lm"])
    if exes is None:
        return
    for path in stb_images(os.path.join(lib.work, "images")):
        lib.compare(os.path.basename(path), exes, [path])


# -- jsmn -------------------------------------------------------------------

def json_inputs(folder):
    rnd = random.Random(5)

    def value(depth):
        r = rnd.random()
        if depth > 6 or r < 0.3:
            return rnd.choice([1, -2.5e-3, "s\u00e9\"x\\y", None, True, False, "", 1e300, "\t\n"])
        if r < 0.65:
            return [value(depth + 1) for _ in range(rnd.randrange(6))]
        return {"k%d" % i: value(depth + 1) for i in range(rnd.randrange(6))}
    texts = {
        "nested.json": json.dumps([value(0) for _ in range(300)], indent=1),
        "compact.json": json.dumps({"a": [value(0) for _ in range(50)]}, separators=(",", ":")),
        "empty_object.json": "{}",
        "bare_primitives.json": "true false null 12 -3.5e7",
        "unclosed.json": '{"a": [1, 2, {"b": "c"',
        "bad_char.json": '{"a": [1, 2\x01]}',
        "bad_escape.json": '{"a": "\\q"}',
        "unterminated_string.json": '{"a": "abc',
        "mismatched.json": '{"a": [1, 2}]',
        "keys_without_values.json": '{"a", "b": 1}',
    }
    return write_files(folder, {name: text.encode() for name, text in texts.items()})


def run_jsmn(lib):
    apt_install(["libjsmn-dev"], lambda: os.path.exists("/usr/include/jsmn.h"))
    inputs = os.path.join(lib.work, "json")
    os.makedirs(inputs, exist_ok=True)
    paths = json_inputs(inputs)
    # Beside the driver: found in /usr/include, jsmn.h would be a system
    # header, whose functions ripper leaves alone.
    shutil.copy("/usr/include/jsmn.h", lib.work)
    driver = copy_driver(lib, "jsmn_dump.c")
    for label, defines in (("jsmn", []), ("jsmn_strict", ["-DJSMN_STRICT"]),
                           ("jsmn_parent_links", ["-DJSMN_PARENT_LINKS", "-DJSMN_STRICT"])):
        exes = lib.build(label, driver, ["-O2"] + defines)
        if exes is not None:
            for path in paths:
                lib.compare("%s %s" % (label, os.path.basename(path)), exes, [path])


# -- sources from package registries, pinned -------------------------------

SQLITE_NPM = "sqlite3@6.0.1"     # node-sqlite3: deps/sqlite-autoconf-3520000.tar.gz (SQLite 3.52.0)
SQLITE_FILES = ("sqlite3.c", "shell.c", "sqlite3.h", "sqlite3ext.h")
LZ4_PYPI = "lz4==4.4.5"           # lz4libs/: lz4 1.9.4 (lz4, lz4hc, lz4frame, xxhash 0.6)
XXHASH_PYPI = "xxhash==4.1.0"     # deps/xxhash/: xxHash 0.8 (XXH32, XXH64, XXH3)
YYJSON_PYPI = "yyjson==4.0.6"     # yyjson/: yyjson 0.10.0
PICO_PYPI = "pypicohp==0.1.3"     # pypicohp/: picohttpparser at upstream commit 066d2b1
BZIP2_CRATE = ("bzip2-sys", "=0.1.13+1.0.8")   # crates.io: bzip2-1.0.8/, the whole release


def untar(archive, dest, members=None):
    """Extract `archive` (a path or file object) into dest; data only."""
    with tarfile.open(archive) if isinstance(archive, str) else \
            tarfile.open(fileobj=archive) as t:
        chosen = [m for m in t.getmembers() if members is None or members(m)]
        if hasattr(tarfile, "data_filter"):
            t.extractall(dest, chosen, filter="data")
        else:
            t.extractall(dest, chosen)


def pypi_folder(name, spec, inner):
    """CACHE/src/NAME: the folder `inner` of PyPI's sdist of `spec`."""
    def fill(tmp):
        r = run_limited([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                         "--no-binary", ":all:", "--timeout", "20", "--retries", "1",
                         spec, "-d", tmp], 300)
        sdists = glob.glob(os.path.join(tmp, "*.tar.gz"))
        if r.status or not sdists:
            raise Skip("pip download %s failed: %s" % (spec, r.stderr.decode()[-300:]))
        untar(sdists[0], os.path.join(tmp, "sdist"))
        found = glob.glob(os.path.join(tmp, "sdist", "*", inner))
        if not found:
            raise Skip("%s's sdist has no %s" % (spec, inner))
        os.rename(found[0], os.path.join(tmp, name))
    return extracted(name, fill)


def sqlite_source():
    """sqlite3.c, shell.c and their headers, from the tarball of SQLite's
    autoconf release that npm's sqlite3 package carries."""
    def fill(tmp):
        npm = shutil.which("npm")
        if not npm:
            raise Skip("needs npm (to fetch %s)" % SQLITE_NPM)
        env = dict(os.environ, npm_config_cache=os.path.join(CACHE, "npm-cache"),
                   npm_config_update_notifier="false")
        r = run_limited([npm, "pack", "--silent", SQLITE_NPM], 900, cwd=tmp, env=env)
        packed = glob.glob(os.path.join(tmp, "sqlite3-*.tgz"))
        if r.status or not packed:
            raise Skip("npm pack %s failed: %s" % (SQLITE_NPM, r.stderr.decode()[-300:]))
        with tarfile.open(packed[0]) as t:
            inner = [m for m in t.getmembers()
                     if re.match(r"package/deps/sqlite-autoconf-\d+\.tar\.gz$", m.name)]
            if not inner:
                raise Skip("%s has no deps/sqlite-autoconf-*.tar.gz" % SQLITE_NPM)
            untar(t.extractfile(inner[0]), os.path.join(tmp, "autoconf"),
                  lambda m: os.path.basename(m.name) in SQLITE_FILES and m.name.count("/") == 1)
        found = glob.glob(os.path.join(tmp, "autoconf", "sqlite-autoconf-*"))
        if not found or not all(os.path.exists(os.path.join(found[0], f)) for f in SQLITE_FILES):
            raise Skip("%s's SQLite tarball lacks one of %s" % (SQLITE_NPM, ", ".join(SQLITE_FILES)))
        os.rename(found[0], os.path.join(tmp, "sqlite"))
    return extracted("sqlite", fill)


def bzip2_source():
    """The bzip2 1.0.8 release tree that crates.io's bzip2-sys carries,
    fetched by cargo (CARGO_HOME in the cache)."""
    def fill(tmp):
        cargo = shutil.which("cargo") or os.path.expanduser("~/.cargo/bin/cargo")
        if not os.path.exists(cargo):
            raise Skip("needs cargo (to fetch the crate %s %s)" % BZIP2_CRATE)
        project = os.path.join(tmp, "fetch")
        os.makedirs(os.path.join(project, "src"))
        with open(os.path.join(project, "Cargo.toml"), "w") as f:
            f.write('[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n'
                    '[dependencies]\n%s = "%s"\n' % BZIP2_CRATE)
        with open(os.path.join(project, "src", "main.rs"), "w") as f:
            f.write("fn main() {}\n")
        home = os.path.join(tmp, "cargo-home")
        r = run_limited([cargo, "fetch", "--manifest-path", os.path.join(project, "Cargo.toml")],
                        900, env=dict(os.environ, CARGO_HOME=home))
        found = glob.glob(os.path.join(home, "registry", "src", "*", "%s-*" % BZIP2_CRATE[0],
                                       "bzip2-*"))
        if r.status or not found:
            raise Skip("cargo fetch %s %s failed: %s" % (BZIP2_CRATE + (r.stderr.decode()[-300:],)))
        os.rename(found[0], os.path.join(tmp, "bzip2"))
    return extracted("bzip2", fill)


def copy_driver(lib, name):
    """Driver `name` copied into the library's work folder, with the
    header every driver includes (slurp.h)."""
    shutil.copy(os.path.join(DRIVERS, "slurp.h"), lib.work)
    return shutil.copy(os.path.join(DRIVERS, name), lib.work)


def binary_inputs(folder):
    """zlib's inputs, and a few more shapes: short, incompressible then
    repetitive, a long period."""
    paths = zlib_inputs(folder)
    rnd = random.Random(3)
    more = {
        "short.txt": b"abcabcabcabcabc hello hello",
        "mixed.bin": bytes(rnd.getrandbits(8) for _ in range(70000)) + b"xyz" * 40000,
        "period.bin": bytes(range(256)) * 700,
    }
    return paths + write_files(folder, more)


# -- SQLite -----------------------------------------------------------------

SQLITE_FLAGS = ["-O2", "-DSQLITE_ENABLE_FTS5", "-DSQLITE_ENABLE_RTREE", "-DSQLITE_ENABLE_GEOPOLY",
                "-DSQLITE_ENABLE_MATH_FUNCTIONS", "-DSQLITE_THREADSAFE=0",
                "-DSQLITE_OMIT_LOAD_EXTENSION"]


def run_sqlite(lib):
    """The amalgamation and its shell, as one translation unit (shell.c's
    appendText is renamed by a macro: main.c has a static one too), driven
    through the shell's main: a SQL script on stdin against a new WAL
    database, a second on the file the first left, then the file written by
    the ripped build dumped by the plain one."""
    src = sqlite_source()
    shell = os.path.join(src, "shell.c")
    unit = unity(os.path.join(lib.work, "sqlite_shell.c"), [os.path.join(src, "sqlite3.c"), shell],
                 before={shell: "#define appendText shell_appendText\n"})
    create = os.path.join(DRIVERS, "sqlite_create.sql")
    reopen = os.path.join(DRIVERS, "sqlite_reopen.sql")
    steps = [("create.sql < (new WAL db)", ["test.db"], create),
             ("reopen.sql < (the same db)", ["test.db"], reopen),
             (".dump", ["test.db", ".dump"], None)]
    # --all-async: every function ripped; --posix: the shell as written,
    # its reads, writes, fsyncs and stdio resume points (its VFS methods,
    # called through pointers, stay plain: caught at run time)
    for label, mode, noise in (("sqlite3", ALL_ASYNC, None), ("sqlite3 --posix", POSIX, CAUGHT)):
        exes = lib.build(label.replace(" --", "-"), unit, SQLITE_FLAGS + ["-I", src], ["-lm"],
                         measure_ripper=mode is ALL_ASYNC, mode=mode)
        if exes is None:
            continue
        folders = compare_runs(lib, label, exes, steps, stderr_noise=noise)
        # the file the ripped build wrote, read by the plain one
        dumps = [run_limited([exes[0], os.path.join(folder, "test.db"), ".dump"], RUN_SECONDS)
                 for folder in folders]
        what = "%s the ripped build's db file, dumped plain" % label
        if dumps[0].status == dumps[1].status and dumps[0].stdout == dumps[1].stdout:
            lib.results.append((what, "match", ""))
        else:
            lib.results.append((what, "wrong", first_difference(dumps[0].stdout, dumps[1].stdout)
                                + " " + first_error(dumps[1].stderr)))


# -- lz4 and xxHash ---------------------------------------------------------

def run_lz4(lib):
    src = pypi_folder("lz4", LZ4_PYPI, "lz4libs")
    driver = copy_driver(lib, "lz4_roundtrip.c")
    unit = unity(os.path.join(lib.work, "lz4_unity.c"),
                 [os.path.join(src, n) for n in ("lz4.c", "lz4hc.c", "xxhash.c", "lz4frame.c")]
                 + [driver])
    exes = lib.build("lz4_roundtrip", unit, ["-O2", "-I", src])
    if exes is None:
        return
    data = os.path.join(lib.work, "data")
    os.makedirs(data, exist_ok=True)
    for path in binary_inputs(data):
        lib.compare("lz4_roundtrip %s" % os.path.basename(path), exes, [path])


# xxHash declares its hash functions pure or const, which --all-async leaves
# plain (gcc may fold their calls); a third build includes the headers it
# uses first and then makes both attributes `unused`, so that all is ripped.
XXHASH_UNPURE = "".join("#include <%s>\n" % h for h in (
    "assert.h", "emmintrin.h", "limits.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h",
    "string.h")) + "#define __pure__ __unused__\n#define __const__ __unused__\n"


def run_xxhash(lib):
    src = pypi_folder("xxhash", XXHASH_PYPI, os.path.join("deps", "xxhash"))
    driver = copy_driver(lib, "xxhash_sums.c")
    includes = [os.path.join(src, "xxhash.c"), driver]
    unit = unity(os.path.join(lib.work, "xxhash_unity.c"), includes)
    unpure = unity(os.path.join(lib.work, "xxhash_unpure.c"), includes, define=XXHASH_UNPURE)
    data = os.path.join(lib.work, "data")
    os.makedirs(data, exist_ok=True)
    paths = binary_inputs(data)
    for label, source, flags in (("xxhash_sums", unit, ["-O2"]),
                                 ("xxhash_sums_scalar", unit, ["-O2", "-DXXH_VECTOR=0"]),
                                 ("xxhash_sums_unpure", unpure, ["-O2"])):
        exes = lib.build(label, source, flags + ["-I", src])
        if exes is not None:
            lib.compare(label, exes, paths)


# -- bzip2 ------------------------------------------------------------------

BZIP2_LIB = ["blocksort", "huffman", "crctable", "randtable", "compress", "decompress", "bzlib"]


def run_bzip2(lib):
    """bzip2's own command line program over its library, one unit (its
    myfeof renamed: bzlib.c has a static one too): the
    release's samples decompressed (-d, -ds) and recompressed, and files
    made here at levels 1, 5 and 9, tested (-t), and a damaged file."""
    src = bzip2_source()
    program = os.path.join(src, "bzip2.c")
    unit = unity(os.path.join(lib.work, "bzip2_unity.c"),
                 [os.path.join(src, n + ".c") for n in BZIP2_LIB] + [program],
                 before={program: "#define myfeof bzip2_myfeof\n"})
    exes = lib.build("bzip2", unit, ["-O2", "-D_FILE_OFFSET_BITS=64", "-I", src])
    if exes is None:
        return
    data = os.path.join(lib.work, "data")
    os.makedirs(data, exist_ok=True)
    paths = binary_inputs(data)
    for sample in sorted(glob.glob(os.path.join(src, "sample*.bz2"))):
        name = os.path.basename(sample)
        lib.compare("bzip2 -dc %s" % name, exes, ["-dc", sample])
        lib.compare("bzip2 -dcs %s" % name, exes, ["-dcs", sample])
        paths.append(sample[:-len(".bz2")] + ".ref")
    for path in paths:
        name = os.path.basename(path)
        for level in ("-1", "-5", "-9"):
            lib.compare("bzip2 %s %s" % (level, name), exes, [level, "-c", path])
        compressed = os.path.join(data, name + ".bz2")
        with open(compressed, "wb") as f:
            f.write(run_limited([exes[0], "-c", path], RUN_SECONDS).stdout)
        lib.compare("bzip2 -dc %s.bz2" % name, exes, ["-dc", compressed])
        lib.compare("bzip2 -t %s.bz2" % name, exes, ["-t", compressed])
    with open(os.path.join(src, "sample2.bz2"), "rb") as f:
        whole = f.read()
    damaged = write_files(data, {"damaged.bz2": whole[:4000] + bytes(b ^ 0x21 for b in whole[4000:4100])
                                 + whole[4100:]})[0]
    lib.compare("bzip2 -dc damaged.bz2", exes, ["-dc", damaged])
    lib.compare("bzip2 -tvv damaged.bz2", exes, ["-tvv", damaged])


# -- yyjson -----------------------------------------------------------------

def yyjson_inputs(folder):
    """jsmn's JSON, and what only a lenient reader takes or only yyjson
    tells apart: comments, trailing commas, NaN, big and tiny numbers,
    escapes and invalid UTF-8, deep nesting."""
    paths = json_inputs(folder)
    texts = {
        "lenient.json": b'{"a": [1, 2, /* c */ 3,], // line\n "k0": NaN, "k1": -Infinity,}',
        "numbers.json": b'[0, -0, 1e400, -1e-400, 18446744073709551615, 18446744073709551616, '
                        b'-9223372036854775808, 9007199254740993, 1.7976931348623157e308, '
                        b'5e-324, 0.1, 123456789.123456789e-5, 1E+2, -0.0e0]',
        "escapes.json": b'{"k1": "\\u00e9\\ud83d\\ude00\\/\\b\\f\\n\\r\\t\\"\\\\", '
                        b'"\\u0000nul": "x", "/x": 1, "~1x": 2}',
        "bad_utf8.json": b'["\xff\xfe", "ok", "\xc3\x28"]',
        "deep.json": b"[" * 500 + b"{}" + b"]" * 500,
        "too_deep_unclosed.json": b"[" * 300 + b"1",
        "big_object.json": json.dumps({"k%d" % i: {"v": i * 1.25, "s": "x" * (i % 17)}
                                       for i in range(2000)}).encode(),
        "empty.json": b"",
        "two_docs.json": b'{"a":1} {"b":2}',
    }
    return paths + write_files(folder, texts)


def run_yyjson(lib):
    src = pypi_folder("yyjson", YYJSON_PYPI, "yyjson")
    driver = copy_driver(lib, "yyjson_dump.c")
    unit = unity(os.path.join(lib.work, "yyjson_unity.c"), [os.path.join(src, "yyjson.c"), driver])
    exes = lib.build("yyjson_dump", unit, ["-O2", "-I", src])
    if exes is None:
        return
    inputs = os.path.join(lib.work, "json")
    os.makedirs(inputs, exist_ok=True)
    for path in yyjson_inputs(inputs):
        lib.compare("yyjson_dump %s" % os.path.basename(path), exes, [path])


# -- picohttpparser ---------------------------------------------------------

def http_records(rnd):
    """(kind, message) pairs: requests, responses, header blocks and chunked
    bodies, well formed and not."""
    crlf = "\r\n"
    methods = ["GET", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "M-SEARCH", "get", ""]
    targets = ["/", "/index.html?x=1&y=%20z", "*", "http://example.com:8080/a/b", "/\x7f", "/a b"]
    names = ["Host", "Content-Length", "X-Very-Long-Header-Name-" + "a" * 60, "Accept",
             "Cookie", "Transfer-Encoding", "", "Bad Name", "Ünicode"]
    values = ["example.com", "12", "text/html, */*;q=0.8", "a=b; c=d", " spaced ", "chunked",
              "\ttabbed", "x" * 300, "ctl\x01char", "\x80high"]
    records = []
    for i in range(300):
        headers = []
        for _ in range(rnd.randrange(0, 20)):
            line = "%s:%s" % (rnd.choice(names), rnd.choice(values))
            if rnd.random() < 0.05:
                line += crlf + " continued value"
            headers.append(line)
        eol = crlf if rnd.random() < 0.85 else "\n"
        head = eol.join(headers) + (eol if headers else "") + eol
        kind = rnd.choice(["request", "request", "response", "headers"])
        if kind == "request":
            version = rnd.choice(["HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/1.", "HTTP/1.12"])
            msg = "%s %s %s%s%s" % (rnd.choice(methods), rnd.choice(targets), version, eol, head)
        elif kind == "response":
            status = rnd.choice(["200 OK", "404 Not Found", "500", "099 Low", "1000 Big",
                                 "204 ", "301 Moved  Permanently"])
            msg = "HTTP/1.%d %s%s%s" % (rnd.randrange(3), status, eol, head)
        else:
            msg = head
        if rnd.random() < 0.15:
            msg = msg[:rnd.randrange(len(msg) + 1)]        # cut short
        elif rnd.random() < 0.1 and msg:
            at = rnd.randrange(len(msg))
            msg = msg[:at] + chr(rnd.randrange(256)) + msg[at + 1:]
        records.append((kind, msg.encode("latin-1")))
    for i in range(60):
        chunks = []
        for _ in range(rnd.randrange(0, 6)):
            data = "".join(rnd.choice("abcdef\r\n0123") for _ in range(rnd.randrange(1, 40)))
            size = "%x" % len(data) if rnd.random() < 0.5 else "%X" % len(data)
            ext = rnd.choice(["", ";ext=1", " ;x"])
            chunks.append("%s%s\r\n%s\r\n" % (size, ext, data))
        body = "".join(chunks) + "0\r\n" + rnd.choice(["", "Trailer: x\r\n"]) + "\r\n" \
            + rnd.choice(["", "leftover bytes"])
        if rnd.random() < 0.2:
            body = body[:rnd.randrange(len(body) + 1)]
        elif rnd.random() < 0.15:
            body = "zz\r\n" + body
        elif rnd.random() < 0.1:
            body = "1" * 20 + "\r\n" + body                # a size too large
        records.append(("chunked", body.encode("latin-1")))
    return records


def http_inputs(folder):
    rnd = random.Random(20)
    records = http_records(rnd)
    files = {}
    for part in range(4):
        files["http_%d.txt" % part] = b"".join(
            b"%s %d\n%s\n" % (kind.encode(), len(msg), msg) for kind, msg in records[part::4])
    return write_files(folder, files)


def run_picohttpparser(lib):
    src = pypi_folder("picohttpparser", PICO_PYPI, "pypicohp")
    driver = copy_driver(lib, "pico_parse.c")
    unit = unity(os.path.join(lib.work, "pico_unity.c"),
                 [os.path.join(src, "picohttpparser.c"), driver])
    inputs = os.path.join(lib.work, "http")
    os.makedirs(inputs, exist_ok=True)
    paths = http_inputs(inputs)
    for label, flags in (("pico_parse", ["-O2"]), ("pico_parse_sse42", ["-O2", "-msse4.2"])):
        exes = lib.build(label, unit, flags + ["-I", src])
        if exes is not None:
            for path in paths:
                lib.compare("%s %s" % (label, os.path.basename(path)), exes, [path])


LIBRARIES = {"zlib": run_zlib, "lua": run_lua, "stb": run_stb, "jsmn": run_jsmn,
             "sqlite": run_sqlite, "lz4": run_lz4, "xxhash": run_xxhash, "bzip2": run_bzip2,
             "yyjson": run_yyjson, "picohttpparser": run_picohttpparser}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default=",".join(LIBRARIES),
                    help="libraries to run, of %s" % ", ".join(LIBRARIES))
    ap.add_argument("--keep", help="build in this folder and keep it")
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n]
    unknown = [n for n in names if n not in LIBRARIES]
    if unknown:
        ap.error("unknown libraries: %s" % ", ".join(unknown))
    os.makedirs(CACHE, exist_ok=True)
    top = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(prefix="real-libs-", dir=CACHE)
    bad = 0
    try:
        for name in names:
            lib = Library(name, os.path.join(top, name))
            os.makedirs(lib.work, exist_ok=True)
            try:
                LIBRARIES[name](lib)
            except Skip as s:
                lib.results.append((name, "skip", str(s)))
            print("== %s" % name)
            for line in lib.notes:
                print("   " + line)
            tally = {}
            for workload, verdict, detail in lib.results:
                tally[verdict] = tally.get(verdict, 0) + 1
                if verdict != "match" or detail:
                    print("   %-10s %s%s" % (verdict, workload, ": " + detail if detail else ""))
            for label, stderr in lib.failures:
                print("   %s, ripcc's errors:" % label)
                for line in compile_errors(stderr):
                    print("      " + line)
            print("   %s" % ", ".join("%d %s" % (n, v) for v, n in sorted(tally.items())))
            bad += sum(n for v, n in tally.items()
                       if v in ("wrong", "crash", "no-compile", "refused"))
            sys.stdout.flush()
    finally:
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)
    print("real libraries: %d workloads wrong, crashed, not built or refused" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
