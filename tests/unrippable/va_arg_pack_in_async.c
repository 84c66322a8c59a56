/* error: '__builtin_va_arg_pack' in async function 'say' */
#include <rip.h>
#include <stdio.h>
extern __inline__ __attribute__((__always_inline__, __gnu_inline__)) int say(const char *f, ...) { rip_yield(); return printf(f, __builtin_va_arg_pack()); }
static void task(void *arg) { (void)arg; (void)say("%d\n", 1); }
int main(void) { return rip_run(task, 0); }
