#include "rip.h"
/* A loop calls an async function: the locals live across the call go to
   the frame, the call's value to a C local temporary. */
RIP_ASYNC int twice(int a) { rip_yield(); return 2 * a; }
int sum(int n) { int total = 0, i; for (i = 0; i < n; i++) total += twice(i); return total; }
