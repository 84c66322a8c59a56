#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* A comma expression moved out of ?: into a store keeps its grouping:
   the temporary gets the comma's value (SQLite's putVarint32). */
int form(int x, int *p) { int t; t = x ? (*p = x), 1 : f(x); return t; }
