/* error: plain function pointer */
#include <stdio.h>
#include <rip.h>
static void worker(void *a) { (void)a; rip_yield(); puts("worker ran"); }
struct ops { void (*run)(void *); };
static struct ops ops = { .run = worker };
static void root(void *a) { ops.run(a); puts("root done"); }
int main(void) { return rip_run(root, NULL); }
