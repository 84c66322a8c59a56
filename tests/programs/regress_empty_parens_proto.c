/* checks: a prototype with empty parentheses before the definition (review regression) */
#include <stdio.h>
#include <rip.h>
int twice();
static void root(void *arg) { int r = twice(4); (void)arg; printf("%d\n", r); }
int twice(int x) { rip_yield(); return 2 * x; }
int main(void) { return rip_run(root, NULL); }
