/* error: 'alloca' in async function 'task' */
#include <rip.h>
#include <alloca.h>
#include <string.h>
static void task(void *arg) { char *p = alloca(16); (void)arg; memset(p, 0, 16); rip_yield(); }
int main(void) { return rip_run(task, 0); }
