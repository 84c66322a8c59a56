"""ripper: a C stack-ripping source transformer.

Passes, each a plain function from data to data:
  parse.parse          C text -> Unit (the only user of libclang)
  analysis.find_async  Unit -> the set of async function names
  lower.lower          Unit + async set -> byte-offset edits
  emit.emit            text + edits -> ripped C with #line directives
"""

__version__ = "0.1.0"
