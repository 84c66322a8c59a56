#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* if and switch conditions wait before the statement. */
int form(int x) { if (f(x)) x++; switch (f(x)) { case 1: return 1; default: break; } return x; }
