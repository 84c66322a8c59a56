/* error: name ripper reserves */
#include <stdio.h>
#include <rip.h>
static int g(int rip_hdr) { rip_yield(); return rip_hdr; }
static void root(void *rip_F) { int r = g(3); (void)rip_F; printf("%d\n", r); }
int main(void) { return rip_run(root, NULL); }
