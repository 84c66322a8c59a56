"""The HTTP head parser (examples/http_parser.h) on its own: a table of heads,
each parsed whole and split at every byte (tests/http_parser_test.c), and a
short libFuzzer run over the seed corpus (fuzz/http_parser_fuzz.c; `make
fuzz-http SECONDS=600` runs longer)."""
import glob
import os
import re
import shutil
import subprocess

import pytest

from conftest import ROOT, run

FUZZ_SECONDS = 20


def test_parser_table_whole_and_split_at_every_byte(tmp_path):
    exe = str(tmp_path / "http_parser_test")
    cc = os.environ.get("CC", "cc")
    build = [cc, "-std=gnu11", "-g", "-O1", "-Wall", "-Wextra", "-Werror",
             "-I" + os.path.join(ROOT, "examples"),
             os.path.join(ROOT, "tests", "http_parser_test.c"),
             "-o", exe]
    sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
    r = run(build[:1] + sanitize + build[1:])
    if r.returncode:                # no sanitizer runtime: the table still runs
        r = run(build)
    assert r.returncode == 0, r.stderr.decode()
    r = run([exe])
    assert r.returncode == 0, r.stdout.decode() + r.stderr.decode()
    assert b" 0 failures" in r.stdout


def libfuzzer_missing():
    """Why a libFuzzer target cannot be built here, or None."""
    if not shutil.which("clang"):
        return "clang is not installed (make test-deps)"
    probe = "int LLVMFuzzerTestOneInput(const char *d, long n) { return !d + n; }"
    r = subprocess.run(["clang", "-x", "c", "-fsanitize=fuzzer", "-", "-o", os.devnull],
                       input=probe.encode(), capture_output=True)
    if r.returncode:
        return "clang cannot link -fsanitize=fuzzer: libFuzzer is missing (make fuzz-deps)"
    return None


LIBFUZZER_MISSING = libfuzzer_missing()


@pytest.mark.skipif(LIBFUZZER_MISSING is not None, reason=str(LIBFUZZER_MISSING))
def test_parser_fuzzed_briefly_keeps_its_invariants(tmp_path):
    r = run(["make", "-s", "-C", ROOT, "build/fuzz/http_parser_fuzz"], timeout=300)
    assert r.returncode == 0, r.stderr.decode()
    seeds = os.path.join(ROOT, "fuzz", "corpus", "http")
    assert len(os.listdir(seeds)) >= 40
    (tmp_path / "new").mkdir()
    r = run([os.path.join(ROOT, "build", "fuzz", "http_parser_fuzz"),
             "-max_total_time=%d" % FUZZ_SECONDS, "-max_len=9000", "-print_final_stats=1",
             "-dict=" + os.path.join(ROOT, "fuzz", "http.dict"),
             "-artifact_prefix=%s/" % tmp_path, str(tmp_path / "new"), seeds],
            timeout=FUZZ_SECONDS + 120)
    err = r.stderr.decode(errors="replace")
    crashes = glob.glob(str(tmp_path / "crash-*")) + glob.glob(str(tmp_path / "leak-*"))
    assert r.returncode == 0 and not crashes, (
        "the fuzzer found a crash; add the input to fuzz/corpus/http and a case to "
        "tests/http_parser_test.c:\n%s\n%s" % (crashes, err[-4000:]))
    runs = re.search(r"stat::number_of_executed_units: (\d+)", err)
    assert runs and int(runs.group(1)) > 1000, err[-2000:]
