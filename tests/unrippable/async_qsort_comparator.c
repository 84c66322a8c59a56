/* error: async function 'cmp' passed to 'qsort', which calls it as a plain function */
#include <rip.h>
#include <stdlib.h>
static int cmp(const void *a, const void *b) { rip_yield(); return *(const int *)a - *(const int *)b; }
static void task(void *arg) { int v[3] = {3, 1, 2}; (void)arg; qsort(v, 3, sizeof v[0], cmp); }
int main(void) { return rip_run(task, 0); }
