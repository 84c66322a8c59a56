/* error: labels as values in async function */
#include <rip.h>
static void task(void *arg) { void *where = &&out; (void)arg; rip_yield(); goto *where; out: ; }
int main(void) { return rip_run(task, 0); }
