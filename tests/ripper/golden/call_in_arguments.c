#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* Arguments wait before the call that takes them; left to right. */
int form(int x) { return g(f(x)) + f(g(x)); }
