#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* An operand left of a call that waits is saved first (C leaves the order open; ripper goes left to right). */
int form(int x) { return g(x) * 10 + f(x); }
