#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* A call that waits, alone: one await. */
void form(int x) { f(x); g(x); }
