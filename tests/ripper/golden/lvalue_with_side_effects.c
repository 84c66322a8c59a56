#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* The place is computed first, left to right; a bit-field is reached through its struct. */
void form(int *a, struct bits *s, int i) { a[i++] = f(i); s[g(i)].high = f(i); }
