/* Names ripper once derived from an async function f's own (f__rip, its
 * frame's constructor; f__resume; struct f__frame) used by the program for
 * other things: a local function pointer named id__rip called beside calls
 * of id (it was called in their place, and the program crashed), a global
 * id__resume, a block-scope struct id__frame whose size was taken for id's
 * frame's.  Ripper's names for f are rip__new_f, rip__resume_f and struct
 * rip__frame_f now, in the space rip.h reserves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int id(int x) { return x; }

int id__resume = 7;

static int twice(int id__rip) { return id(id__rip) * 2; }   /* a parameter */

static int frames(void)
{
    struct id__frame { char bytes[200]; } big;               /* a block-scope tag */
    int sum = 0, i;
    memset(&big, 0, sizeof big);
    for (i = 0; i < 50; i++) {
        big.bytes[i] = (char)id(i);
        sum += big.bytes[i] + (int)sizeof(struct id__frame);
    }
    return sum;
}

int main(void)
{
    void *(*id__rip)(size_t) = malloc;                      /* a local */
    char *p = id__rip(16);
    int n = id(3);
    strcpy(p, "ok");
    printf("%s %d %d %d %d\n", p, n, id(id__resume), twice(5), frames());
    free(p);
    return 0;
}
