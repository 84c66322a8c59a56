/* checks: an async function whose parameter list has a // comment with an apostrophe in it (stb_vorbis.c's stb_vorbis_decode_frame_pushdata: "// the file we're decoding") */
/* known bug: the parameter list is found by scanning the preprocessed text, which keeps comments, for the matching ')'; the scan skips block comments and string and character literals but not // comments, so the apostrophe opens a character literal that never closes: "error: cannot find the parameter list of 'add'" (with --all-async the function is left plain for that reason) */
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
