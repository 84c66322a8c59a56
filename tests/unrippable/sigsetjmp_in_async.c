/* error: 'sigsetjmp' in async function 'task' */
#include <rip.h>
#include <setjmp.h>
static sigjmp_buf env;
void task(void *arg) { (void)arg; if (sigsetjmp(env, 1)) return; rip_yield(); }
int main(void) { return rip_run(task, 0); }
