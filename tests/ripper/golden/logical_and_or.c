#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* && and || run their right side only when C would. */
int form(int x) { return (x && f(x)) || f(0); }
