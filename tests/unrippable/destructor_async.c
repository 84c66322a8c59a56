/* error: runs as a destructor, before or after main, where nothing may suspend */
#include <rip.h>
__attribute__((destructor)) static void fini(void) { rip_yield(); }
int main(void) { return 0; }
