/* A program's own `struct rip_frame` and a header guard of its own named
 * RIP_FRAME_H: ripper puts its frame ABI (rip_frame.h) before every file it
 * rips, and its frame header and include guard were these names (the
 * struct clashed, the guarded code vanished).  They are rip__frame and
 * RIP__FRAME_H now, in the space rip.h reserves. */
#include <stdio.h>

#ifndef RIP_FRAME_H
#define RIP_FRAME_H
struct rip_frame { int depth; const char *name; };
static int guarded = 1;
#endif

static int depth_of(struct rip_frame *f) { return f->depth; }

int main(void)
{
    struct rip_frame f = { 3, "mine" };
    printf("%s %d %d\n", f.name, depth_of(&f), guarded);
    return 0;
}
