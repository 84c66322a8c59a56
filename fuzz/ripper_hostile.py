"""ripper_hostile.py -- ripper against hostile input.

Each case takes a seed program (tests/programs/*.c, examples/*.c) and
breaks it: a token, a line or a range deleted, lines duplicated or swapped,
the file cut at a random byte, binary garbage, NUL bytes or invalid UTF-8
put in, a megabyte-long line, an unterminated comment or string, an
#include of a missing file, #error, self-referential macros; or respells
it with the same meaning (backslash-newlines inside tokens, comments
between tokens, CRLF line ends and a BOM, digraphs, directives between
statements, identifiers through identity macros); or adds blocks,
parentheses, ifs, else-ifs, sums or unary operators nested thousands deep,
tens of thousands of functions, a megabytes-long table.  `ripper in.c -o
out.c` then must:

  - exit 0, 1 (the input has errors) or 2 (usage) within the time limit:
    no signal, no hang;
  - print no Python traceback and no "internal error in ripper";
  - on exit 1, say why as `file:line:col: error: ...` (or `file: error:`);
  - on any exit but 0, leave out.c as it was (a file there before keeps
    its bytes, none appears) and no temporary file beside it;
  - on exit 0, write an out.c that compiles with cc whenever the mutated
    input compiles with cc.

    python fuzz/ripper_hostile.py [--seed 1] [--cases 200] [--jobs 2] [--big] [--keep DIR]

A case is reproduced by its seed and number (`--seed 3 --only 17`); a
failing one is kept under --keep (default build/fuzz/ripper-hostile).
--big lets the huge-file and deep-nesting mutations grow to megabytes
(ripper may take minutes on those; the time limit grows with the size).
"""
import argparse
import concurrent.futures
import glob
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RIPPER = os.path.join(os.path.dirname(sys.executable), "ripper")


def _good_seed(path):
    """Not a program ripper gets wrong today (`/* known bug: ...`, see
    tests/test_programs.py): its output need not compile yet."""
    with open(path, "rb") as f:
        return re.search(rb"^/\* known bug: ", f.read(), re.M) is None


SEEDS = sorted(p for p in glob.glob(os.path.join(ROOT, "tests", "programs", "*.c")) +
               glob.glob(os.path.join(ROOT, "examples", "*.c")) if _good_seed(p))
INCLUDE = ["-I", os.path.join(ROOT, "runtime", "include")]
RIPPED_INCLUDE = INCLUDE + ["-I", os.path.join(ROOT, "runtime", "src", "rip")]
SENTINEL = b"/* out.c from before: a failed run must leave these bytes alone */\n"

TOKEN = re.compile(rb'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|[A-Za-z_]\w*|\d\w*|\S')
DIAGNOSTIC = re.compile(r"^(.+?):(\d+):(\d+): error: .+|^(.+?): error: .+")


# -- mutations: (rng, source bytes, big) -> mutated bytes ----------------------

def _lines(src):
    return src.splitlines(keepends=True) or [b""]


def _function_end(src):
    """Offset just past the first function body at file scope (a `}` at
    the start of a line), or the end of the file."""
    m = re.search(rb"\n}[^\n]*\n", src)
    return m.end() if m else len(src)


def _add_function(src, text):
    """`text` put after the first function of the seed."""
    at = _function_end(src)
    return src[:at] + b"\n" + text + b"\n" + src[at:]


def delete_token(rng, src, big):
    tokens = list(TOKEN.finditer(src))
    if not tokens:
        return src
    m = rng.choice(tokens)
    return src[:m.start()] + src[m.end():]


def delete_tokens(rng, src, big):
    for _ in range(rng.randint(2, 6)):
        src = delete_token(rng, src, big)
    return src


def delete_line(rng, src, big):
    lines = _lines(src)
    del lines[rng.randrange(len(lines))]
    return b"".join(lines)


def delete_range(rng, src, big):
    a = rng.randrange(len(src) + 1)
    return src[:a] + src[a + rng.randint(1, 400):]


def duplicate_lines(rng, src, big):
    lines = _lines(src)
    a = rng.randrange(len(lines))
    chunk = lines[a:a + rng.randint(1, 8)]
    at = rng.randrange(len(lines) + 1)
    return b"".join(lines[:at] + chunk + lines[at:])


def swap_lines(rng, src, big):
    lines = _lines(src)
    a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[a], lines[b] = lines[b], lines[a]
    return b"".join(lines)


def truncate(rng, src, big):
    return src[:rng.randrange(len(src) + 1)]


def _insert(rng, src, text):
    at = rng.randrange(len(src) + 1)
    return src[:at] + text + src[at:]


def binary_garbage(rng, src, big):
    return _insert(rng, src, bytes(rng.randrange(256) for _ in range(rng.randint(1, 64))))


def nul_bytes(rng, src, big):
    return _insert(rng, src, b"\0" * rng.randint(1, 8))


def invalid_utf8(rng, src, big):
    bad = rng.choice([b"\xff", b"\xfe\xff", b"\xc3", b"\xc3\x28", b"\xe2\x82", b"\xed\xa0\x80",
                      b"\xf8\x88\x80\x80\x80", b"\xc0\xaf"])
    if rng.random() < 0.5:          # inside a string literal or comment, where C allows it
        strings = [m for m in TOKEN.finditer(src) if m.group().startswith(b'"')]
        if strings:
            m = rng.choice(strings)
            return src[:m.start() + 1] + bad + src[m.start() + 1:]
    return _insert(rng, src, bad)


def long_line(rng, src, big):
    n = (1 << 20) if big else 100000
    kind = rng.randrange(4)
    if kind == 0:
        text = b"static const char long_string[] = \"" + b"x" * n + b"\";\n"
    elif kind == 1:
        text = b"/* " + b"c" * n + b" */\n"
    elif kind == 2:
        text = b"static int " + b"v" * n + b";\n"
    else:
        text = b"static int spaces = 1" + b" " * n + b";\n"
    return _add_function(src, text)


def unterminated_comment(rng, src, big):
    return _insert(rng, src, b"/*")


def unterminated_string(rng, src, big):
    return _insert(rng, src, rng.choice([b'"', b"'", b'"abc\\']))


def _at_line_start(rng, src, text):
    lines = _lines(src)
    lines.insert(rng.randrange(len(lines) + 1), text)
    return b"".join(lines)


def missing_include(rng, src, big):
    return _at_line_start(rng, src, rng.choice([b'#include "no_such_file.h"\n',
                                                b"#include <no/such/header.h>\n",
                                                b"#include\n", b'#include "\n']))


def error_directive(rng, src, big):
    return _at_line_start(rng, src, rng.choice([b"#error stop here\n", b"#warning careful\n",
                                                b"#pragma GCC error \"no\"\n", b"#if\n",
                                                b"#endif\n", b"#else\n", b"#if 1\n",
                                                b"#line 0\n", b"#define\n"]))


def recursive_macro(rng, src, big):
    text = rng.choice([
        b"#define rip_yield() rip_yield()\n",
        b"#define printf(...) printf(__VA_ARGS__)\n",
        b"#define int int\n",
        b"#define return return\n",
        b"#define f(x) f(f(x))\n#define g(x) f(g(x))\n",
        b"#define A B\n#define B A\n",
        b"#define rip_yield() (rip_yield(), rip_yield())\n",
    ])
    return _at_line_start(rng, src, text)


# Spellings that keep the meaning: ripper edits by byte offsets, and these
# put bytes where tokens are usually alone.

def line_splices(rng, src, big):
    """Backslash-newlines inside tokens (`rip_yi\\<newline>eld`)."""
    for _ in range(rng.randint(1, 8)):
        words = [m for m in TOKEN.finditer(src) if len(m.group()) > 1 and m.group()[:1] != b'"']
        if not words:
            break
        m = rng.choice(words)
        at = rng.randrange(m.start() + 1, m.end())
        src = src[:at] + b"\\\n" + src[at:]
    return src


def comments_between_tokens(rng, src, big):
    tokens = list(TOKEN.finditer(src))
    for m in sorted(rng.sample(tokens, min(len(tokens), rng.randint(1, 40))),
                    key=lambda m: -m.start()):
        src = src[:m.end()] + rng.choice([b"/**/", b"/* } { ; */", b" ", b"\t\f\v"]) + src[m.end():]
    return src


def crlf_and_bom(rng, src, big):
    if rng.random() < 0.5:
        src = src.replace(b"\n", b"\r\n")
    return (b"\xef\xbb\xbf" if rng.random() < 0.5 else b"") + src


def digraphs(rng, src, big):
    """<% %> <: :> for braces and brackets (not in strings or directives)."""
    out = []
    for line in _lines(src):
        if line.lstrip().startswith(b"#"):
            out.append(line)
            continue
        parts = re.split(rb'("(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//.*)', line)
        for i in range(0, len(parts), 2):
            parts[i] = (parts[i].replace(b"{", b"<%").replace(b"}", b"%>")
                        .replace(b"[", b"<:").replace(b"]", b":>"))
        out.append(b"".join(parts))
    return b"".join(out)


def preprocessor_noise(rng, src, big):
    """Directives between statements: #if 1 around a line, #if 0 around
    garbage, #pragma and _Pragma."""
    lines = _lines(src)
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(len(lines) + 1)
        kind = rng.randrange(4)
        if kind == 0 and at < len(lines):
            lines[at:at + 1] = [b"#if 1\n", lines[at], b"#endif\n"]
        elif kind == 1:
            lines.insert(at, b"#if 0\n} { ) ( \" ' garbage\n#endif\n")
        elif kind == 2:
            lines.insert(at, b"#pragma GCC diagnostic push\n")
        else:
            lines.insert(at, b'_Pragma("GCC diagnostic push")\n')
    return b"".join(lines)


def identity_macros(rng, src, big):
    """Identifiers passed through `#define ID(x) x` and `#define SAME x`-style
    object-like macros."""
    words = [m for m in TOKEN.finditer(src) if re.match(rb"[A-Za-z_]\w*$", m.group()) and
             not src[src.rfind(b"\n", 0, m.start()) + 1:m.start()].lstrip().startswith(b"#")]
    if not words:
        return src
    picked = sorted(rng.sample(words, min(len(words), rng.randint(1, 10))),
                    key=lambda m: -m.start())
    defines = b"#define RIP_HOSTILE_ID(x) x\n"
    for m in picked:
        if rng.random() < 0.5:
            src = src[:m.start()] + b"RIP_HOSTILE_ID(" + m.group() + b")" + src[m.end():]
        else:
            alias = b"RIP_HOSTILE_" + m.group()
            defines += b"#define %s %s\n" % (alias, m.group())
            src = src[:m.start()] + alias + src[m.end():]
    return defines + src


def _depth(rng, big, small=(100, 300, 1500), large=(3000, 30000)):
    return rng.choice(large if big and rng.random() < 0.5 else small)


def deep_blocks(rng, src, big):
    d = _depth(rng, big, small=(200, 255, 257, 2000))
    return _add_function(src, b"RIP_ASYNC void deep_blocks(void) { int x = 0; " + b"{" * d +
                         b"rip_yield(); x++;" + b"}" * d + b" (void)x; }")


def deep_parens(rng, src, big):
    d = _depth(rng, big, small=(100, 255, 257, 5000))
    return _add_function(src, b"int deep_parens(int x) { return " + b"(" * d + b"x" + b")" * d +
                         b"; }")


def deep_ifs(rng, src, big):
    d = _depth(rng, big)
    return _add_function(src, b"RIP_ASYNC void deep_ifs(int a) { " + b"if (a) " * d +
                         b"rip_yield(); }")


def deep_else_ifs(rng, src, big):
    d = _depth(rng, big, small=(100, 1000, 5000))
    arms = b" else ".join(b"if (a == %d) rip_yield();" % i for i in range(d))
    return _add_function(src, b"RIP_ASYNC void deep_else_ifs(int a) { " + arms + b" }")


def long_sum(rng, src, big):
    d = _depth(rng, big)
    term = rng.choice([b"a", b"f(a)"])
    return _add_function(src, b"RIP_ASYNC int f(int);\nint long_sum(int a) { return " +
                         b" + ".join([term] * d) + b"; }")


def deep_unary(rng, src, big):
    d = _depth(rng, big)
    op = rng.choice([b"!", b"-", b"~", b"(int)"])
    return _add_function(src, b"int deep_unary(int a) { return " + op * d + b"a; }")


def many_functions(rng, src, big):
    n = rng.choice((20000, 50000)) if big else rng.choice((500, 2000))
    fns = []
    for i in range(n):
        if i % 10 == 0:
            fns.append(b"RIP_ASYNC static int gen%d(int a) { rip_yield(); return a + %d; }\n"
                       % (i, i))
        else:
            fns.append(b"static int gen%d(int a) { return gen%d(a) * 3 + %d; }\n" % (i, i - 1, i))
    fns.append(b"void use_gen(void *p) { (void)p; gen%d(1); }\n" % (n - 1))
    return _add_function(src, b"".join(fns))


def big_table(rng, src, big):
    n = (1 << 20) if big else 20000
    return _add_function(src, b"static const int big_table[] = {" +
                         b",".join(b"%d" % (i * 7919 % 100003) for i in range(n)) + b"};\n")


MUTATIONS = [delete_token, delete_tokens, delete_line, delete_range, duplicate_lines,
             swap_lines, truncate, binary_garbage, nul_bytes, invalid_utf8, long_line,
             unterminated_comment, unterminated_string, missing_include, error_directive,
             recursive_macro, line_splices, comments_between_tokens, crlf_and_bom, digraphs,
             preprocessor_noise, identity_macros, deep_blocks, deep_parens, deep_ifs,
             deep_else_ifs, long_sum, deep_unary, many_functions, big_table]
CHEAP = MUTATIONS[:22]              # the seed's size, give or take


# -- one case -------------------------------------------------------------------

def make_case(seed, index, big=False):
    """(seed file, mutation name, mutated bytes) of case `index`."""
    rng = random.Random(seed * 1000003 + index)
    path = rng.choice(SEEDS)
    with open(path, "rb") as f:
        src = f.read()
    mutation = rng.choice(MUTATIONS if rng.random() < 0.3 else CHEAP)
    return path, mutation.__name__, mutation(rng, src, big)


def cc_syntax(path, include, quote_dir):
    cc = shlex.split(os.environ.get("CC", "cc"))
    try:
        r = subprocess.run(cc + ["-fsyntax-only", "-std=gnu11", "-w"] + include +
                           ["-iquote", quote_dir, path], capture_output=True, timeout=600)
    except subprocess.TimeoutExpired:
        return None, "cc ran over 600 s"
    return r.returncode == 0, r.stderr.decode(errors="replace")


def check(seed_path, data, workdir, timeout=None):
    """(verdict, detail): verdict 'ripped' or 'refused' when ripper behaved,
    'BUG' when not."""
    src = os.path.join(workdir, "in.c")
    out = os.path.join(workdir, "out.c")
    with open(src, "wb") as f:
        f.write(data)
    before = SENTINEL if len(data) % 2 else None       # half the runs with an out.c there
    if before is not None:
        with open(out, "wb") as f:
            f.write(before)
    timeout = timeout or 120 + 120 * len(data) / 1e6   # past ripper's own parse limit
    try:
        r = subprocess.run([RIPPER, src, "-o", out, "-I", os.path.dirname(seed_path)],
                           capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "BUG", "ripper ran over %d s" % timeout
    err = r.stderr.decode(errors="replace")
    stray = [n for n in os.listdir(workdir) if n not in ("in.c", "out.c")]
    if r.returncode < 0:
        return "BUG", "ripper killed by signal %d\n%s" % (-r.returncode, err[-2000:])
    if r.returncode not in (0, 1, 2):
        return "BUG", "exit status %d\n%s" % (r.returncode, err[-2000:])
    if "Traceback (most recent call last)" in err or "internal error in ripper" in err:
        return "BUG", err[-3000:]
    if stray:
        return "BUG", "left behind: %s" % stray
    if r.returncode != 0:
        now = open(out, "rb").read() if os.path.exists(out) else None
        if now != before:
            return "BUG", "exit %d but out.c %s" % (
                r.returncode, "appeared" if before is None else "changed")
        if r.returncode == 1 and not any(DIAGNOSTIC.match(l) for l in err.splitlines()):
            return "BUG", "exit 1 without a file:line:col: error: line\n" + err[-2000:]
        ok_in, _ = cc_syntax(src, INCLUDE, os.path.dirname(seed_path))
        return "refused", "input %s with cc: %s" % (
            "compiles" if ok_in else "does not compile", err.splitlines()[0] if err else "")
    if not os.path.exists(out) or open(out, "rb").read() == before:
        return "BUG", "exit 0 but no out.c written"
    quote = os.path.dirname(seed_path)
    ok_in, _ = cc_syntax(src, INCLUDE, quote)
    if ok_in:
        ok_out, msg = cc_syntax(out, RIPPED_INCLUDE, quote)
        if not ok_out:
            return "BUG", "the input compiles, ripper's output does not:\n" + msg[-3000:]
    return "ripped", "input %s with cc" % ("compiles" if ok_in else "does not compile")


def run_case(seed, index, big, keep):
    seed_path, mutation, data = make_case(seed, index, big)
    workdir = tempfile.mkdtemp(prefix="ripper-hostile-")
    start = time.monotonic()
    try:
        verdict, detail = check(seed_path, data, workdir)
        if verdict == "BUG" and keep:
            os.makedirs(keep, exist_ok=True)
            name = "s%d-c%d-%s.c" % (seed, index, mutation)
            shutil.copy(os.path.join(workdir, "in.c"), os.path.join(keep, name))
            detail = "kept as %s\n%s" % (os.path.join(keep, name), detail)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return {"index": index, "seed_file": os.path.relpath(seed_path, ROOT), "mutation": mutation,
            "bytes": len(data), "verdict": verdict, "detail": detail,
            "seconds": time.monotonic() - start}


def run(seed=1, cases=100, jobs=2, big=False, keep=None, only=None, log=sys.stderr):
    """The results of cases 0..cases-1 (or just `only`) of `seed`."""
    indices = [only] if only is not None else list(range(cases))
    results = []
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for res in pool.map(lambda i: run_case(seed, i, big, keep), indices):
            results.append(res)
            if log is not None:
                print("case %(index)d: %(mutation)s of %(seed_file)s (%(bytes)d bytes): "
                      "%(verdict)s in %(seconds).1f s" % res, file=log, flush=True)
                if res["verdict"] == "BUG" or res["detail"].startswith("input compiles with cc:"):
                    print("  " + res["detail"].replace("\n", "\n  "), file=log, flush=True)
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--only", type=int, help="run just this case of the seed")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--big", action="store_true", help="megabyte files, nesting 30,000 deep")
    ap.add_argument("--keep", default=os.path.join(ROOT, "build", "fuzz", "ripper-hostile"))
    args = ap.parse_args()
    results = run(args.seed, args.cases, args.jobs, args.big, args.keep, args.only)
    counts = {}
    for r in results:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    print("%d cases: %s" % (len(results),
                            ", ".join("%d %s" % (n, v) for v, n in sorted(counts.items()))))
    return 1 if counts.get("BUG") else 0


if __name__ == "__main__":
    sys.exit(main())
