/* checks: an async function whose parameter list has a // comment with an apostrophe in it (stb_vorbis.c's stb_vorbis_decode_frame_pushdata: "// the file we're decoding") */
#include <stdio.h>
#include <rip.h>

static int add(int a,   // the first, it's an int
               int b)   // the second
{
    rip_yield();
    return a + b;
}

static void task(void *arg)
{
    (void)arg;
    printf("%d\n", add(2, 3));
}

int main(void)
{
    return rip_run(task, NULL);
}
