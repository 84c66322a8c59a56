"""What the pass tests share: run the pipeline on a string up to a pass."""
from ripper.analysis import Analysis
from ripper.normalize import normalize
from ripper.parse import parse
from ripper.preprocess import preprocess

HEAD = b'#include "rip.h"\nRIP_ASYNC int f(int);\nint use(int);\n'


def unit_of(source, flags=()):
    """The parsed unit (tree.Unit) of C source text (bytes)."""
    return parse(preprocess("<stdin>", source, flags))


def function(source, name, flags=()):
    """(unit, tree.Function) of function `name` defined in `source`."""
    unit = unit_of(source, flags)
    return unit, unit.definitions[name]


def normalized(source, name):
    """(function, analysis, normalize.Normalized) of async function `name`."""
    unit, fn = function(source, name)
    analysis = Analysis(unit)
    return fn, analysis, normalize(fn, analysis.names, analysis.functions, None)
