"""objfile.py -- read what ripcc's link needs from objects and archives.

Two small readers, no tool needed: the members of an `ar` archive (the
common format GNU and BSD ar write, long names included), and the
contents of a named section of an ELF object, 32 or 64 bits, either
byte order (ripcc keeps how to rip an object again in one:
wholeprogram.py).

    members("libsrv.a")              -> [("io.o", b"\\x7fELF..."), ("server.o", ...)]
    elf_section(data, ".rip_rerip")  -> b"eyJ2Ijog...\\0" (None if it has none)
"""

import struct

ARCHIVE_MAGIC = b"!<arch>\n"
THIN_MAGIC = b"!<thin>\n"


class NotReadable(Exception):
    """An archive or object this module cannot read (the message says why)."""


def is_archive(path):
    """Does `path` start as an archive (a thin one too)?"""
    try:
        with open(path, "rb") as f:
            return f.read(8) in (ARCHIVE_MAGIC, THIN_MAGIC)
    except OSError:
        return False


def members(path):
    """[(name, bytes)] of archive `path`'s object members, in order (the
    symbol index and the long-name table left out); raise NotReadable for
    a thin archive (its members are files elsewhere) or a damaged one."""
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(THIN_MAGIC):
        raise NotReadable("%s is a thin archive" % path)
    if not data.startswith(ARCHIVE_MAGIC):
        raise NotReadable("%s is not an archive" % path)
    out, long_names, at = [], b"", len(ARCHIVE_MAGIC)
    while at + 60 <= len(data):
        header = data[at:at + 60]
        if header[58:60] != b"`\n":
            raise NotReadable("%s is damaged (a member header at byte %d)" % (path, at))
        raw, size = header[:16].rstrip(b" "), int(header[48:58].strip() or b"0")
        body = data[at + 60:at + 60 + size]
        at += 60 + size + (size & 1)        # members start at even offsets
        if raw in (b"/", b"/SYM64/", b"__.SYMDEF", b"__.SYMDEF SORTED"):
            continue                        # the symbol index
        if raw == b"//":                    # GNU: the long names, each ending "/\n"
            long_names = body
            continue
        if raw.startswith(b"#1/"):          # BSD: the name begins the body
            n = int(raw[3:])
            name, body = body[:n].rstrip(b"\0"), body[n:]
        elif raw.startswith(b"/") and raw[1:].isdigit():
            start = int(raw[1:])
            name = long_names[start:long_names.index(b"\n", start)].rstrip(b"/")
        else:
            name = raw.rstrip(b"/")
        if name.startswith(b"__.SYMDEF"):  # BSD's symbol index under a long name
            continue
        out.append((name.decode("utf-8", "replace"), body))
    return out


def _sections(data):
    """[(name, type, file offset, size, link)] of ELF object `data`'s
    sections, or [] if it is not ELF (or is cut short)."""
    if data[:4] != b"\x7fELF" or len(data) < 52:
        return []
    wide, order = data[4] == 2, "<" if data[5] == 1 else ">"
    try:
        if wide:
            shoff, = struct.unpack_from(order + "Q", data, 0x28)
            shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", data, 0x3A)
            header = order + "IIQQQQI"      # name type flags addr offset size link
        else:
            shoff, = struct.unpack_from(order + "I", data, 0x20)
            shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", data, 0x2E)
            header = order + "IIIIIII"
        raw = [struct.unpack_from(header, data, shoff + i * shentsize) for i in range(shnum)]
        names = raw[shstrndx][4], raw[shstrndx][5]
        table = data[names[0]:names[0] + names[1]]
        return [(table[h[0]:table.index(b"\0", h[0])].decode("utf-8", "replace"), h[1], h[4],
                 h[5], h[6]) for h in raw]
    except (struct.error, IndexError, ValueError):
        return []


def elf_section(data, name):
    """The contents (bytes) of the section called `name` in ELF object
    `data`, or None if it has none or is not ELF."""
    for sname, _, offset, size, _ in _sections(data):
        if sname == name:
            return data[offset:offset + size]
    return None


SHT_SYMTAB = 2
GLOBAL_BINDINGS = (1, 2, 10)        # STB_GLOBAL, STB_WEAK, STB_GNU_UNIQUE


def elf_symbols(data):
    """(defined, undefined): the sets of global symbol names ELF object
    `data` defines (weak ones too) and refers to without defining (not
    weak ones: a weak reference may stay unresolved, as ripper's to both
    forms of a start routine of another file, pthread_create's).

        elf_symbols(<io.o>) -> ({"rip__new_read_line"}, {"rip__new_rip_posix_read", ...})"""
    sections = _sections(data)
    defined, undefined = set(), set()
    wide, order = data[4:5] == b"\x02", "<" if data[5:6] == b"\x01" else ">"
    for _, kind, offset, size, link in sections:
        if kind != SHT_SYMTAB or link >= len(sections):
            continue
        strings = data[sections[link][2]:sections[link][2] + sections[link][3]]
        step = 24 if wide else 16
        for at in range(offset + step, offset + size - step + 1, step):     # [0] is null
            if wide:
                name, info, _, shndx = struct.unpack_from(order + "IBBH", data, at)
            else:
                name, = struct.unpack_from(order + "I", data, at)
                info, _, shndx = struct.unpack_from(order + "BBH", data, at + 12)
            if info >> 4 not in GLOBAL_BINDINGS or not name:
                continue
            if shndx == 0 and info >> 4 == 2:
                continue            # STB_WEAK, undefined
            symbol = strings[name:strings.index(b"\0", name)].decode("utf-8", "replace")
            (undefined if shndx == 0 else defined).add(symbol)
    return defined, undefined
