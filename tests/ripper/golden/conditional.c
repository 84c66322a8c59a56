#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* ?: runs one arm; the GNU form ?: evaluates its condition once. */
int form(int x) { return (x ? f(1) : f(2)) + (f(x) ?: 7); }
