"""ripper/frame.py: what an async function's frame holds and how it is
laid out (ripper --stage liveness shows the same)."""
from ripper import abi, stages
from ripper.cli import rip_source

HEAD = b'#include "rip.h"\n'


def frame_of(code, name):
    """(frame fields, C locals) of async function `name`, as --stage
    liveness writes them."""
    text = stages.run("liveness", "t.c", HEAD + code, [], []).decode()
    line = next(l for l in text.splitlines() if l.startswith(name + ":"))
    fields, c_locals = line.split("frame {")[1].split("}, C locals {")
    return fields.split(", ") if fields else [], c_locals.rstrip("}").split(", ")


def test_only_what_is_read_after_a_suspension_is_in_the_frame():
    fields, c_locals = frame_of(b"int f(int n) { int kept = n * 2, scratch = n + 1;\n"
                                b"  kept += scratch; rip_yield(); return kept; }\n", "f")
    # a parameter the body reads arrives in the frame (the constructor stores it)
    assert fields == ["n", "kept"] and c_locals == ["scratch"]


def test_arrays_and_locals_whose_address_is_taken_live_in_the_frame():
    fields, _ = frame_of(b"void use(int *);\nvoid f(void) { int a[2] = {0}, x = 1;\n"
                         b"  use(&x); use(a); rip_yield(); }\n", "f")
    assert set(fields) == {"a", "x"}


def test_shadowed_names_get_fields_of_their_own():
    fields, _ = frame_of(b"int f(void) { int x = 1; rip_yield(); { int x = 2; rip_yield();\n"
                         b"  if (x) return x; } return x; }\n", "f")
    assert fields == ["x", "x_2"]


def test_frame_size_counts_the_header_fields_and_their_alignment():
    assert abi.frame_size([]) == abi.FRAME_HEADER
    assert abi.frame_size([(1, 1)]) == 32                  # 24 + 1, rounded to 8
    assert abi.frame_size([(16, 16)]) == 48                # the field 16-aligned at 32


def test_stats_report_each_async_functions_frame():
    stats = []
    rip_source("t.c", HEAD + b"int f(int n) { rip_yield(); return n; }\n", [], False, stats)
    (s,) = stats
    assert (s.name, s.suspensions, s.in_frame, s.frame_bytes) == ("f", 1, 1, 32)
