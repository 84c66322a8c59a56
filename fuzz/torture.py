"""torture.py -- hold ripper against gcc's torture tests (make fuzz-torture).

Every test of gcc's gcc.c-torture/execute suite (Debian's gcc-12-source
package: its tarball's execute/ folder is extracted once into
build/torture/) is built plain with cc and ripped with `ripper --all-async`,
both are run, and they must exit the same way and print the same stdout
(fuzz/suite_diff.py does that and says the verdicts).  A test that the plain
build does not pass (exit 0) is skipped, and so is one whose directives
this machine cannot satisfy.

One optimization level, -O2 (the level of the suite's own default torture
runs that most users build with, and the one ripper's own tests use; the
tests that call an undefined link_error() to check a folding need some
optimization to link at all).  A test's own dg-options come after it.

What the harness honours, as gcc's DejaGnu driver would on this machine:
dg-options and dg-additional-options (with their target selectors),
dg-do (only `run`), dg-require-effective-target and dg-skip-if,
dg-xfail-if and dg-xfail-run-if (a test expected to fail here is skipped)
against this machine's target triplet and a table of effective targets
(an unknown one skips the test, saying so); ieee/ tests get -fno-inline and
what their .x files say (flags, or not for this target); builtins/ tests,
each linked with its own -lib.c and lib/main.c, are skipped.

    python fuzz/torture.py [--jobs 2] [--only GLOB] [--sample N] [--keep DIR]
        [--report FILE]             (default build/torture/report.txt)
"""
import fcntl
import fnmatch
import glob
import os
import re
import shlex
import shutil
import sys
import tempfile

import suite_diff
from difftest import ROOT, run_limited
from suite_diff import Case

TARBALLS = "/usr/src/gcc-12/gcc-*.tar.xz"
SUITE_PATH = "gcc/testsuite/gcc.c-torture/execute"
CACHE = os.path.join(ROOT, "build", "torture")
PACKAGE = "gcc-12-source"

# Effective targets of an x86_64 (or aarch64) GNU/Linux machine, as gcc's
# target-supports.exp answers them there; ia32 is set from the machine.
EFFECTIVE = {
    "int32plus": True, "int32": True, "longlong64": True, "double64plus": True,
    "int128": True, "lp64": True, "ilp32": False, "stdint_types": True,
    "label_values": True, "trampolines": True, "alloca": True, "indirect_jumps": True,
    "untyped_assembly": True, "return_address": True, "nonlocal_goto": True,
    "fileio": True, "unwrapped": True, "mmap": True, "c99_runtime": True, "signal": True,
    "fpic": True, "pie": True, "weak": True, "alias": True, "dfp": True,
    "freestanding": False, "newlib_nano_io": False, "vxworks_kernel": False,
    "coldfire_fpu": False, "ti_c67x": False, "hard_float": True,
}


def triplet():
    """This machine's target triplet as DejaGnu spells it: x86_64-pc-linux-gnu."""
    r = run_limited(["cc", "-dumpmachine"], 30)
    parts = (r.stdout.decode().strip() or "x86_64-linux-gnu").split("-")
    if len(parts) == 3:
        parts.insert(1, "pc" if re.match(r"i.86|x86_64", parts[0]) else "unknown")
    return "-".join(parts)


TRIPLET = triplet()
EFFECTIVE["ia32"] = bool(re.match(r"i.86", TRIPLET))


class Unknown(Exception):
    """A directive, effective target or .x command this harness cannot judge."""


# -- Tcl, as much of it as the directives and .x files use ---------------------

def tcl_words(text, script=False):
    """Words of a Tcl list (script=True: commands, each a list of words), a
    word being (kind, text): 'brace' for {...} (text inside), 'quote' for
    "..." (text inside), 'bare' for the rest ([...] kept whole)."""
    commands, words, i, n = [], [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and text.startswith("\\\n", i):
            i += 2
        elif c in "\n;" and script:
            if words:
                commands.append(words)
            words, i = [], i + 1
        elif c.isspace():
            i += 1
        elif c == "{":
            j = closing(text, i, "{", "}")
            words.append(("brace", text[i + 1:j]))
            i = j + 1
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            words.append(("quote", text[i + 1:j]))
            i = j + 1
        else:
            j, depth = i, 0
            while j < n and (depth or not text[j].isspace()) and not (script and text[j] == ";"):
                depth += {"[": 1, "]": -1}.get(text[j], 0)
                j += 2 if text[j] == "\\" else 1
            words.append(("bare", text[i:j]))
            i = j
    if words:
        commands.append(words)
    return commands if script else words


def closing(text, i, open_, close):
    """Index of the bracket that closes the one at text[i]."""
    depth, j = 0, i
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == open_:
            depth += 1
        elif text[j] == close:
            depth -= 1
            if depth == 0:
                return j
        j += 1
    raise Unknown("unbalanced %s" % open_)


def strings(word):
    """A word as a list of strings: a braced list's items, or the word."""
    kind, text = word
    return [t for _, t in tcl_words(text)] if kind == "brace" else [text]


# -- selectors and effective targets -----------------------------------------

def effective(name):
    if name not in EFFECTIVE:
        raise Unknown("effective target %s" % name)
    return EFFECTIVE[name]


def selected(words):
    """Whether a DejaGnu target selector ({ x86_64-*-* }, { ! alloca },
    { a && b }) picks this machine."""
    if any(k == "bare" and t in ("&&", "||") for k, t in words) or \
            (words and words[0] == ("bare", "!")):
        value, op, negate = None, None, False
        for kind, text in words:
            if kind == "bare" and text in ("&&", "||"):
                op = text
            elif kind == "bare" and text == "!":
                negate = not negate
            else:
                v = selected_word((kind, text)) != negate
                value = v if op is None else (value and v if op == "&&" else value or v)
                negate = False
        return bool(value)
    return any(selected_word(w) for w in words)


def selected_word(word):
    kind, text = word
    if kind == "brace":
        return selected(tcl_words(text))
    if "-" in text:                             # a triplet glob
        return fnmatch.fnmatchcase(TRIPLET, text)
    return effective(text)


def target_clause(word):
    """A directive's trailing { target SEL } or { xfail SEL }: (keyword, picked)."""
    words = tcl_words(word[1]) if word[0] == "brace" else [word]
    return words[0][1], selected(words[1:])


def flags_match(flags, include, exclude):
    """DejaGnu's check-flags: some include option ("*": any) is among the
    flags and no exclude option is."""
    def present(option):
        return option.split() and all(any(fnmatch.fnmatchcase(f, o) for f in flags)
                                      for o in option.split())
    return ("*" in include or any(present(o) for o in include)) and \
        not any(present(o) for o in exclude)


# -- dg directives ------------------------------------------------------------

def directives(text):
    """[words] of every `{ dg-... }` in the file."""
    found = []
    for m in re.finditer(r"\{\s*dg-", text):
        j = closing(text, m.start(), "{", "}")
        found.append(tcl_words(text[m.start() + 1:j]))
    return found


def apply_directives(text, base_flags):
    """(flags, why the test is skipped or None) from a test's directives."""
    options, extra = [], []
    for words in directives(text):
        name, args = words[0][1], words[1:]
        clause = target_clause(args[-1]) if len(args) > 1 and args[-1][0] == "brace" \
            and args[-1][1].split()[:1] in (["target"], ["xfail"]) else None
        if name in ("dg-options", "dg-additional-options"):
            if clause and not clause[1]:
                continue
            flags = shlex.split(" ".join(strings(args[0])))
            if name == "dg-options":
                options = flags
            else:
                extra += flags
        elif name == "dg-do":
            if args[0][1] != "run":
                return None, "dg-do %s: not a test that runs" % args[0][1]
            if clause and clause[1] == (clause[0] == "xfail"):
                return None, "dg-do run not for this target"
        elif name == "dg-require-effective-target":
            target = args[0][1]
            if not effective(target):
                return None, "needs effective target %s" % target
        elif name in ("dg-skip-if", "dg-xfail-if", "dg-xfail-run-if"):
            comment, sel = args[0][1], tcl_words(args[1][1]) if args[1][0] == "brace" else [args[1]]
            include = strings(args[2]) if len(args) > 2 else ["*"]
            exclude = strings(args[3]) if len(args) > 3 else [""]
            if selected(sel) and flags_match(base_flags + options + extra, include, exclude):
                return None, "%s here: %s" % (name, comment or "(no reason given)")
        elif name == "dg-add-options":
            if args[0][1] not in ("stack_size", "ieee"):   # neither adds a flag here
                raise Unknown("dg-add-options %s" % args[0][1])
        elif name not in ("dg-require-stack-size", "dg-require-alias", "dg-require-weak",
                          "dg-prune-output", "dg-final", "dg-message", "dg-warning",
                          "dg-bogus", "dg-timeout-factor"):
            raise Unknown(name)
    return options + extra, None


# -- .x files (ieee/) -----------------------------------------------------------

class _Return(Exception):
    pass


class _Undecided:
    def __bool__(self):
        raise Unknown("a condition")


def read_x(path):
    """(extra flags, why the test is skipped or None) from a .x file."""
    with open(path, errors="replace") as f:
        text = "".join(ln for ln in f if not ln.lstrip().startswith("#"))
    state = {"flags": [], "skip": None}
    try:
        run_script(text, state)
    except _Return as r:
        if str(r) != "0":
            state["skip"] = state["skip"] or "its .x file says: not for this target"
    return state["flags"], state["skip"]


def run_script(text, state):
    for words in tcl_words(text, script=True):
        name = words[0][1]
        if name == "if":
            i = 1
            while i < len(words):
                cond, i = words[i], i + 1
                if words[i][1] == "then":
                    i += 1
                body, i = words[i], i + 1
                if condition(cond):
                    run_script(body[1], state)
                    break
                if i < len(words) and words[i][1] == "elseif":
                    i += 1
                elif i < len(words) and words[i][1] == "else":
                    run_script(words[i + 1][1], state)
                    break
                else:
                    break
        elif name == "return":
            raise _Return(words[1][1] if len(words) > 1 else "0")
        elif name == "lappend" and words[1][1] == "additional_flags":
            state["flags"] += [t for _, t in words[2:]]
        elif name == "set" and words[1][1] == "torture_execute_xfail":
            state["skip"] = "its .x file expects a failure here"
        elif name == "set" and words[1][1] == "additional_flags":
            state["flags"] = shlex.split(words[2][1])
        elif name not in ("set", "global"):
            raise Unknown(".x command %s" % name)


def condition(word):
    """A Tcl `if` condition of istarget and check_effective_target_* calls."""
    text = word[1].replace("\\[", "?").replace("\\]", "?")
    values = {}

    def call(m):
        cmd = tcl_words(m.group(1))
        if cmd[0][1] == "istarget":
            v = fnmatch.fnmatchcase(TRIPLET, cmd[1][1])
        elif cmd[0][1].startswith("check_effective_target_"):
            v = EFFECTIVE.get(cmd[0][1][len("check_effective_target_"):], _Undecided())
        else:
            v = _Undecided()
        values["v%d" % len(values)] = v
        return " v%d " % (len(values) - 1)
    expr = re.sub(r"\[([^\[\]]*)\]", call, text)
    expr = expr.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
    if not re.fullmatch(r"[\sv\d()]*(?:(?:and|or|not)[\sv\d()]*)*", expr):
        raise Unknown("condition %s" % word[1].strip())
    return bool(eval(expr, {"__builtins__": {}}, values))


# -- the suite --------------------------------------------------------------

def tarball():
    found = sorted(p for p in glob.glob(TARBALLS) if re.search(r"/gcc-\d[\d.]*(-dfsg)?\.tar", p))
    return found[-1] if found else None


def suite_folder():
    """build/torture/execute, extracted from the package's tarball on first
    use; None when the package is not installed."""
    return extracted([SUITE_PATH + "/*"], SUITE_PATH, "execute")


def zlib_folder():
    """build/torture/zlib: the zlib gcc carries (its own CMakeLists.txt and
    test programs), from the same tarball; None without the package."""
    return extracted(["zlib/*"], "zlib", "zlib")


# What gcc's in-tree zlib/configure (autoconf, automake, libtool) needs from
# the top of gcc's tree.
GCC_AUX = ("config.guess", "config.sub", "install-sh", "missing", "ltmain.sh", "mkinstalldirs",
           "config-ml.in", "compile", "depcomp")


def gcc_zlib_tree():
    """build/torture/gcc-zlib: gcc's tree cut down to zlib and the files its
    autoconf configure runs; None without the package."""
    return extracted(["zlib/*"] + list(GCC_AUX), "", "gcc-zlib")


def extracted(patterns, take, name):
    """The tarball's members matching `patterns` (under its top folder),
    extracted once and the folder `take` of them moved to
    build/torture/NAME (again when the tarball changes); None when the
    package is missing."""
    folder = os.path.join(CACHE, name)
    source = tarball()
    stamp = os.path.join(CACHE, ".%s-extracted-from" % name)
    if source is None:
        return folder if os.path.exists(stamp) else None
    os.makedirs(CACHE, exist_ok=True)
    with open(os.path.join(CACHE, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)        # one extraction at a time
        if os.path.exists(stamp) and open(stamp).read() == source and os.path.isdir(folder):
            return folder
        top = re.sub(r"(-dfsg)?\.tar\.xz$", "", os.path.basename(source))
        tmp = tempfile.mkdtemp(prefix="extract-", dir=CACHE)
        try:
            r = run_limited(["tar", "-xJf", source, "-C", tmp, "--wildcards"] +
                            ["%s/%s" % (top, p) for p in patterns], 600)
            if r.status:
                raise SystemExit("torture: cannot extract %s: %s" % (
                    source, r.stderr.decode(errors="replace")[-500:]))
            shutil.rmtree(folder, ignore_errors=True)
            os.rename(os.path.join(tmp, top, take), folder)
            with open(stamp, "w") as f:
                f.write(source)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return folder


def case_for(folder, relpath, base_flags, x_file=False):
    path = os.path.join(folder, relpath)
    name = relpath[:-2]
    with open(path, errors="replace") as f:
        text = f.read()
    try:
        flags, skip = list(base_flags), None
        if x_file and os.path.exists(path[:-2] + ".x"):
            more, skip = read_x(path[:-2] + ".x")
            flags += more
        if skip is None:
            more, skip = apply_directives(text, suite_diff.OPT + ["-w"] + flags)
            flags += more or []
    except Unknown as e:
        flags, skip = [], "cannot judge here: %s" % e
    return Case(name, path, flags, skip=skip, need_exit_zero=True)


def cases(folder):
    """A Case per test: execute/*.c, ieee/*.c, builtins/*.c (skipped)."""
    out = [case_for(folder, fn, []) for fn in sorted(os.listdir(folder)) if fn.endswith(".c")]
    ieee = os.path.join(folder, "ieee")
    ieee_flags = ["-fno-inline"] + (["-ffloat-store"] if EFFECTIVE["ia32"] else [])
    out += [case_for(folder, "ieee/" + fn, ieee_flags, x_file=True)
            for fn in sorted(os.listdir(ieee)) if fn.endswith(".c")]
    builtins = os.path.join(folder, "builtins")
    out += [Case("builtins/" + fn[:-2], os.path.join(builtins, fn), [],
                 skip="a test of several files (its -lib.c and lib/main.c)", need_exit_zero=True)
            for fn in sorted(os.listdir(builtins)) if fn.endswith(".c") and
            not fn.endswith("-lib.c")]
    return out


def run(names=None, jobs=2, keep=None, sample=None, only=None):
    """{name: (verdict, detail)}: the named tests (or all, or a selection)."""
    folder = suite_folder()
    if folder is None:
        raise SystemExit(missing_note())
    all_cases = cases(folder)
    if names is not None:
        all_cases = [c for c in all_cases if c.name in set(names)]
    return suite_diff.run(suite_diff.select(all_cases, only, sample), jobs, keep, "torture-")


def missing_note():
    return ("torture: gcc's torture tests come from Debian's %s package (%s): "
            "apt-get install %s, or run `make fuzz-torture` as root" % (
                PACKAGE, TARBALLS, PACKAGE))


def main():
    args = suite_diff.arguments(__doc__, folder=False)
    folder = suite_folder()
    if folder is None:
        print(missing_note(), file=sys.stderr)
        return 2
    selected_cases = suite_diff.select(cases(folder), args.only, args.sample)
    args.report = args.report or os.path.join(CACHE, "report.txt")
    return suite_diff.run_and_report(
        "gcc torture execute (%s), ripped --all-async against plain %s" % (
            os.path.basename(tarball() or folder), " ".join(suite_diff.OPT)),
        selected_cases, args, "torture-")


if __name__ == "__main__":
    sys.exit(main())
