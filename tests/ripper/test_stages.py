"""ripper --stage NAME: each stage is what the one pipeline made, so a
file that rips shows every stage (stages.py reads lower's results)."""
from ripper import stages

# --all-async: main cannot be ripped (an async call inside _Generic), so it
# stays plain and the unit is ripped again; f is ripped.
GENERIC = b"""static int f(int x) { return x + 1; }
int main(void) { int a = _Generic(f(1), int: f(2), default: 0); return a; }
"""


def stage(name, source, all_async=True):
    return stages.run(name, "t.c", source, [], [], all_async).decode()


def test_every_stage_shows_a_file_whose_function_stays_plain_under_all_async():
    assert "async main: --all-async" in stage("analysis", GENERIC)   # before lowering found out
    normalized = stage("normalize", GENERIC)
    assert normalized.startswith("/* f, ") and "main" not in normalized
    assert stage("liveness", GENERIC) == "f: frame {x}, C locals {}\n"
    assert "rip__resume_f" in stage("lower", GENERIC)


def test_the_normalize_stage_is_the_form_the_ripped_code_was_printed_from():
    source = b'#include "rip.h"\nint g(int);\nint h(int x) { return g(x) + (rip_yield(), x); }\n'
    assert "await 1: rip_yield();" in stage("normalize", source, all_async=False)
