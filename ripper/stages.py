"""stages.py -- stop after any pass and look (ripper --stage NAME).

The pipeline, each stage a function from the last one's data:

    preprocess  the file as the compiler's preprocessor writes it
    parse       the tree of every function defined in the user's files
    analysis    which functions are async, and why (or, --all-async, why not)
    normalize   each async function with every async call a statement of
                its own: `await N: target = f(args);`
    liveness    what each async function keeps in its frame
    lower       the ripped file (what ripper writes without --stage)

    ripper --stage analysis prog.c
"""

from . import STAGES, tree as T   # noqa: F401 (STAGES: where cli.py finds them too)
from .analysis import Analysis
from .lower import lower
from .parse import parse
from .preprocess import preprocess


def run(stage, path, source, flags, dialect, all_async=False, posix=False):
    """The text stage `stage` shows for `source`."""
    pre = preprocess(path, source, flags)
    if stage == "preprocess":
        return pre.text
    unit = parse(pre, dialect)
    if stage == "parse":
        return "".join(_tree(unit, f) for f in unit.functions
                       if f.definition and not f.system and f.body is not None).encode()
    analysis = Analysis(unit, all_async, posix)
    if stage == "analysis":
        out = ["async %s: %s\n" % (name, analysis.why.get(name, ""))
               for name in sorted(analysis.names) if name in analysis.defined]
        out += ["plain %s: %s\n" % (name, why) for name, why in sorted(analysis.plain.items())]
        return "".join(out).encode()
    rw = lower(unit, analysis, all_async)
    if stage == "lower":
        return rw.render()
    out = []
    for f in unit.functions:
        fn = rw.lowering.ripped.get(f.name) if f.definition else None
        if fn is None:
            continue
        where = unit.lines.where(f.start)
        if stage == "normalize":
            out.append("/* %s, %s:%d */\n%s\n" % (f.name, where[0], where[1],
                                                  fn.normalized_text()))
        else:
            out.append("%s: frame {%s}, C locals {%s}\n" % (
                f.name, ", ".join(name for name, _, _, _ in fn.field_types),
                ", ".join(sorted(d.name for d in fn.c_locals()))))
    return "".join(out).encode()


def _tree(unit, f):
    where = unit.lines.where(f.start)
    lines = ["%s (%s:%d)\n" % (f.name, where[0], where[1])]

    def dump(n, depth):
        text = unit.text[n.start:n.end].decode("utf-8", "replace").split("\n")[0][:40]
        typed = " : %s" % n.type.spelling if isinstance(n, T.Expr) and n.type else ""
        lines.append("%s%r%s  `%s`\n" % ("  " * depth, n, typed, text))
        for c in n.children():
            dump(c, depth + 1)
    for p in f.params:
        dump(p, 1)
    dump(f.body, 1)
    return "".join(lines)
