#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* A loop whose condition waits: for (;;) with the condition inside; continue re-evaluates it. */
int form(int x) { while (f(x) > 0) { if (x & 1) { x--; continue; } x -= 2; } return x; }
