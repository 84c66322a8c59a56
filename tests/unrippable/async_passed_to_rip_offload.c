/* error: async function 'work' passed to 'rip_offload', which runs it on another thread */
#include <rip.h>
static void *work(void *arg) { rip_yield(); return arg; }
static void task(void *arg) { void *r = rip_offload(work, arg); (void)r; }
int main(void) { return rip_run(task, 0); }
