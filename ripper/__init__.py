"""ripper: a C stack-ripping source transformer.

The pipeline, each pass a plain function from the last one's data (stop
after any with `ripper --stage NAME`: stages.py):

  preprocess  C file -> the compiler's preprocessed text (preprocess.py)
  parse       text -> Unit, the one typed tree (parse.py, libclang's only user)
  analysis    Unit -> which functions are async, and why (analysis.py)
  normalize   each async function with every async call a statement of its own
  liveness    what each async function keeps in its frame (cfg.py, liveness.py)
  lower       Unit + analysis -> edits of the text -> ripped C (lower.py, emit.py)
"""

__version__ = "0.1.0"
STAGES = ("preprocess", "parse", "analysis", "normalize", "liveness", "lower")
