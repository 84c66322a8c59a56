/* error: '__builtin_frame_address' in async function */
#include <rip.h>
void *where;
void task(void *arg) { (void)arg; where = __builtin_frame_address(0); rip_yield(); }
int main(void) { return rip_run(task, 0); }
