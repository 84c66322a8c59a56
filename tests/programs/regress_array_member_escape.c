/* checks: arrays inside structs and typedef'd arrays whose address escapes stay in the frame (review regression) */
#include <stdio.h>
#include <string.h>
#include <rip.h>
struct msg { char text[32]; };
typedef char name_t[16];
static void clobber(void *arg) { volatile char junk[4096]; (void)arg; memset((char *)junk, 0x55, sizeof junk); }
static void root(void *arg)
{
    struct msg m;
    name_t nm;
    char *p, *q;
    (void)arg;
    strcpy(m.text, "hello"); strcpy(nm, "world");
    p = m.text;             /* array member decays: no '&' */
    q = nm;                 /* typedef'd array */
    rip_spawn(clobber, NULL);
    rip_yield();
    printf("%s %s\n", p, q);
}
int main(void) { return rip_run(root, NULL); }
