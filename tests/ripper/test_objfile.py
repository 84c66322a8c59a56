"""ripper/objfile.py reads archives and ELF objects without a tool, for
ripcc's link under --posix (wholeprogram.py): members in order with GNU
long names, duplicates and BSD names; a named section; the global symbols
defined and referred to, 64 and 32 bits."""
import subprocess

import pytest

from ripper import objfile, wholeprogram

SOURCE = ("extern int g(void);\nint h(void) { return g(); }\nint f(void) { return 1; }\n"
          "static int s(void) { return 2; }\nint (*p)(void) = s;\n"
          '__asm__(".pushsection .rip_rerip,\\"e\\",%progbits\\n\\t.asciz \\"e30=\\"\\n\\t'
          '.popsection");\n')


def compiled(tmp_path, name, *flags):
    (tmp_path / "t.c").write_text(SOURCE)
    r = subprocess.run(["cc", "-c", *flags, str(tmp_path / "t.c"), "-o", str(tmp_path / name)],
                       capture_output=True)
    if r.returncode:
        pytest.skip("cc %s: %s" % (" ".join(flags), r.stderr.decode()))
    return (tmp_path / name).read_bytes()


@pytest.mark.parametrize("flags", ([], ["-m32"]), ids=("64-bit", "32-bit"))
def test_symbols_and_section_of_an_object(tmp_path, flags):
    data = compiled(tmp_path, "t.o", *flags)
    defined, undefined = objfile.elf_symbols(data)
    assert {"f", "h", "p"} <= defined and "s" not in defined      # a static is not global
    assert "g" in undefined and not defined & undefined
    assert objfile.elf_section(data, ".rip_rerip") == b"e30=\0"
    assert wholeprogram.records(data) == [{}]                      # "{}" in base64
    assert objfile.elf_section(data, ".nothing") is None
    assert objfile.elf_symbols(b"not an object") == (set(), set())


def test_members_of_an_archive_in_order_long_names_and_duplicates(tmp_path):
    data = compiled(tmp_path, "a_member_name_longer_than_sixteen.o")
    (tmp_path / "b.o").write_bytes(data + b"\0")         # an odd size: padded in the archive
    lib = str(tmp_path / "lib.a")
    for args in (["rcs", lib, "a_member_name_longer_than_sixteen.o", "b.o"], ["q", lib, "b.o"]):
        assert subprocess.run(["ar"] + args, cwd=str(tmp_path)).returncode == 0
    assert objfile.is_archive(lib) and not objfile.is_archive(str(tmp_path / "b.o"))
    assert objfile.members(lib) == [("a_member_name_longer_than_sixteen.o", data),
                                    ("b.o", data + b"\0"), ("b.o", data + b"\0")]


def test_bsd_names_and_thin_archives(tmp_path):
    body = b"\x7fELF-ish"
    name = b"#1/12".ljust(16)
    header = name + b"0".ljust(12) + b"0".ljust(6) + b"0".ljust(6) + b"644".ljust(8) + \
        str(12 + len(body)).encode().ljust(10) + b"`\n"
    (tmp_path / "bsd.a").write_bytes(b"!<arch>\n" + header + b"long_name.o\0" + body)
    assert objfile.members(str(tmp_path / "bsd.a")) == [("long_name.o", body)]
    (tmp_path / "thin.a").write_bytes(b"!<thin>\n")
    with pytest.raises(objfile.NotReadable, match="thin archive"):
        objfile.members(str(tmp_path / "thin.a"))
