#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* A statement expression that waits is opened into a block before the full expression. */
int form(int x) { int r = g(1) + ({ int t = f(x); if (t < 0) goto out; t * 2; }); return r; out: return -1; }
