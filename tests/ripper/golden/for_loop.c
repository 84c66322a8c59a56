#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* for: init, condition and step each may wait. */
int form(int n) { int s = 0; for (int i = f(0); i < f(n); i += f(1)) { if (i == 3) continue; s += i; } return s; }
