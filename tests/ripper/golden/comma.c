#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* The comma operator is sequenced. */
int form(int x) { return (f(x), g(x)); }
