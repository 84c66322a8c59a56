/* error: the braces of this async function's body come from a macro */
#include <stdio.h>
#include <rip.h>
#define BEGIN {
#define END }
static void task(void *arg) BEGIN
    (void)arg;
    rip_yield();
    printf("hi\n");
END
int main(void) { return rip_run(task, NULL); }
