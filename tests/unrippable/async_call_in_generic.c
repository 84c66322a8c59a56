/* error: inside _Generic */
#include <rip.h>
RIP_ASYNC int f(int x) { rip_yield(); return x; }
void task(void *arg) { int v = _Generic(1, int: f(2), default: 0); (void)arg; (void)v; }
int main(void) { return rip_run(task, 0); }
