/* checks: an async and a plain function declared in one static declaration */
#include <stdio.h>
#include <rip.h>
static int a(int), b(int);
static int a(int x) { rip_yield(); return x + 1; }
static int b(int x) { return x * 2; }
static void root(void *arg) { int r = a(b(2)); (void)arg; printf("%d\n", r); }
int main(void) { return rip_run(root, NULL); }
