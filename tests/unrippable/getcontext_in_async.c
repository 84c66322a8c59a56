/* error: 'getcontext' in async function */
#include <rip.h>
#include <ucontext.h>
void task(void *arg) { ucontext_t uc; (void)arg; getcontext(&uc); rip_yield(); }
int main(void) { return rip_run(task, 0); }
