/* error: 'setjmp' in async function 'task' */
#include <rip.h>
#include <setjmp.h>
static jmp_buf env;
void task(void *arg) { (void)arg; if (setjmp(env)) return; rip_yield(); }
int main(void) { return rip_run(task, 0); }
