/* checks: an async function whose body's braces come from a macro (ripper reads the preprocessed text) */
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
