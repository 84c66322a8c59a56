/* error: va_start of a va_list that is not a local variable of variadic async function 'first' */
#include <rip.h>
#include <stdarg.h>
static va_list saved;
RIP_ASYNC static int first(int n, ...) { va_start(saved, n); rip_yield(); n = va_arg(saved, int); va_end(saved); return n; }
static void task(void *arg) { (void)arg; (void)first(1, 2); }
int main(void) { return rip_run(task, 0); }
