#include "rip.h"
/* && runs its right operand only when C would: the call on the right
   waits inside an if. */
RIP_ASYNC int ready(int fd);
int both(int a, int b) { return ready(a) && ready(b); }
