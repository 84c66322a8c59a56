/* error: async call in an asm operand */
#include <rip.h>
RIP_ASYNC int f(int x) { rip_yield(); return x; }
void task(void *arg) { (void)arg; __asm__ volatile("" : : "r"(f(1))); }
int main(void) { return rip_run(task, 0); }
