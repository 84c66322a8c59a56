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

Inputs come from package registries, installed when missing (apt-get when
running as root, pip download into build/reallibs):

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

    python fuzz/real_libs.py [--only zlib,lua,stb,jsmn] [--keep DIR]

Prints a line per workload (match, wrong, crash, no-compile or skip, with
the first differing output), and per library what --all-async said (how
many functions it ripped, which it left plain and why) and the time ripcc
took against the plain compile.  Exit status 1 unless every workload
matches.  Workloads whose plain output changes from run to run (timings,
random seeds) are compared by exit status alone.
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
        os.rename(os.path.join(tmp, name), folder)
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


class Library:
    """One library: builds plain and ripped, and the verdicts of its workloads."""

    def __init__(self, name, work):
        self.name = name
        self.work = work
        self.results = []       # (workload, verdict, detail)
        self.notes = []         # what --all-async said, timings

    def build(self, label, source, flags, libs=()):
        """(plain exe, ripped exe) of `source`, or None when the ripped one
        does not build (recorded as no-compile).  ripcc compiles with -c and
        links apart: it puts -l flags before its ripped sources."""
        plain = os.path.join(self.work, label + "-plain")
        ripped = os.path.join(self.work, label + "-ripped")
        start = time.monotonic()
        r = run_limited(plain_cc() + flags + [source, "-o", plain] + list(libs), BUILD_SECONDS)
        cc_seconds = time.monotonic() - start
        if r.status:
            raise Skip("the plain build of %s fails:\n%s" % (label, r.stderr.decode()[-1500:]))
        start = time.monotonic()
        r = run_limited([RIPCC, "--all-async"] + flags + ["-c", source, "-o", ripped + ".o"],
                        BUILD_SECONDS)
        rip_seconds = time.monotonic() - start
        said = [l for l in r.stderr.decode(errors="replace").splitlines()
                if "--all-async:" in l or "left plain:" in l]
        self.notes.append("%s: %s" % (label, "; ".join(said) or "(no report)"))
        self.notes.append("%s: ripcc --all-async -c %.1f s, plain compile and link %.1f s"
                          % (label, rip_seconds, cc_seconds))
        if r.status == 0:
            r = run_limited([RIPCC, ripped + ".o", "-o", ripped] + list(libs), BUILD_SECONDS)
        if r.status:
            self.results.append((label, "no-compile", first_error(r.stderr)))
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


def first_error(stderr):
    lines = stderr.decode(errors="replace").splitlines()
    errors = [l for l in lines if "error" in l]
    return (errors or lines or [""])[0][:300]


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


def unity(path, includes, define=""):
    """A file that #includes each of `includes` (one translation unit)."""
    with open(path, "w") as f:
        f.write(define + "".join('#include "%s"\n' % i for i in includes))
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
    driver = shutil.copy(os.path.join(DRIVERS, "jsmn_dump.c"), lib.work)
    for label, defines in (("jsmn", []), ("jsmn_strict", ["-DJSMN_STRICT"]),
                           ("jsmn_parent_links", ["-DJSMN_PARENT_LINKS", "-DJSMN_STRICT"])):
        exes = lib.build(label, driver, ["-O2"] + defines)
        if exes is not None:
            for path in paths:
                lib.compare("%s %s" % (label, os.path.basename(path)), exes, [path])


LIBRARIES = {"zlib": run_zlib, "lua": run_lua, "stb": run_stb, "jsmn": run_jsmn}


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
    top = args.keep or tempfile.mkdtemp(prefix="real-libs-", dir=CACHE)
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
            print("   %s" % ", ".join("%d %s" % (n, v) for v, n in sorted(tally.items())))
            bad += sum(n for v, n in tally.items() if v in ("wrong", "crash", "no-compile"))
            sys.stdout.flush()
    finally:
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)
    print("real libraries: %d workloads wrong, crashed or not built" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
