/* error: calls async function 'f' outside a task */
#include <rip.h>
RIP_ASYNC static int f(void) { rip_yield(); return 1; }
int main(void) { return f(); }
