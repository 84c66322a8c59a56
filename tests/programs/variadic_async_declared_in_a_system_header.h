/* A header of the program's that calls itself a system one (tinyproxy's
 * log.h does, to quiet its variadic macros): its variadic async function
 * is still the program's. */
#pragma GCC system_header
#include "rip.h"
RIP_ASYNC int note(int level, const char *fmt, ...);
