/* gdb_script.h -- the runtime's gdb commands (rip-gdb.py, beside this
 * file: `rip tasks`, `rip bt N`, `rip print EXPR`, ripped functions named
 * as the source names them in `bt`) carried by every program linked with
 * the runtime, in its .debug_gdb_scripts section as an inline script
 * (gdb's format 4: the script's name on the first line, then its text),
 * so that `gdb ./prog` loads the very script that matches the runtime the
 * program was built with, from a live process or a core file, with
 * nothing installed.  The section is not loaded into memory (no "a"
 * flag); `strip --strip-debug` removes it with the rest of the debug
 * information.  The assembler finds the script on its include path
 * (-Wa,-I this folder: the Makefile and ripper/runtime.py pass it).
 * Included once per backend, by the file that defines rip_run, which every
 * program links. */
#ifndef RIP_GDB_SCRIPT_H
#define RIP_GDB_SCRIPT_H

__asm__(".pushsection \".debug_gdb_scripts\", \"MS\", @progbits, 1\n"
        ".byte 4\n"
        ".ascii \"gdb.inlined-script.rip-gdb\\n\"\n"
        ".incbin \"rip-gdb.py\"\n"
        ".byte 0\n"
        ".popsection\n");

#endif
