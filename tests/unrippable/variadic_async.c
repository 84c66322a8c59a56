/* error: is variadic */
#include <rip.h>
#include <stdarg.h>
RIP_ASYNC static int sum(int n, ...) { va_list ap; int s = 0; va_start(ap, n); while (n--) s += va_arg(ap, int); va_end(ap); rip_yield(); return s; }
static void task(void *arg) { (void)arg; (void)sum(2, 1, 2); }
int main(void) { return rip_run(task, 0); }
