#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* x op= f(): the left side is read after the call returns. */
int form(int x) { x += f(x); x *= f(x) + 1; return x; }
