/* error: runs as a constructor, before or after main, where nothing may suspend */
#include <rip.h>
__attribute__((constructor)) static void init(void) { rip_yield(); }
int main(void) { return 0; }
