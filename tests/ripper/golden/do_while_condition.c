#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* do ... while: continue goes to the condition, through a label. */
int form(int x) { do { if (x & 1) continue; x--; } while (f(x--)); return x; }
