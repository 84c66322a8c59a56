#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* sizeof of a variably modified type runs its size: the call waits. */
unsigned long form(int x) { return sizeof(char[f(x)][2]); }
