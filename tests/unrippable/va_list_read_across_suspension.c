/* error: va_list 'ap' of async function 'sum' is in use across a suspension */
#include <rip.h>
#include <stdarg.h>
RIP_ASYNC static int sum(int n, ...) { va_list ap; int s = 0; va_start(ap, n); while (n--) { s += va_arg(ap, int); rip_yield(); } va_end(ap); return s; }
static void task(void *arg) { (void)arg; (void)sum(2, 1, 2); }
int main(void) { return rip_run(task, 0); }
