/* error: a va_list passed to async function 'vsum' */
#include <rip.h>
#include <stdarg.h>
RIP_ASYNC static int vsum(int n, va_list ap) { int s = 0; rip_yield(); while (n--) s += va_arg(ap, int); return s; }
RIP_ASYNC static int sum(int n, ...) { va_list ap; va_start(ap, n); int s = vsum(n, ap); va_end(ap); return s; }
static void task(void *arg) { (void)arg; (void)sum(2, 1, 2); }
int main(void) { return rip_run(task, 0); }
