#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* Its value stored: the await stores it. */
int form(int x) { int y; y = f(x); return y + 1; }
