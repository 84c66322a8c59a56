#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* sizeof and typeof never call: nothing waits (the call keeps only its type). */
int form(int x) { __typeof__(f(x)) y = (int)sizeof f(x); return y + f(x); }
