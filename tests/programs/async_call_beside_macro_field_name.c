/* checks: an async call in an expression that also names a struct field through a macro (like glibc's st_mtime) */
#include <stdio.h>
#include <rip.h>

struct times { struct { long sec, nsec; } mtim; };
#define mtime mtim.sec

static long value(long v)
{
    rip_yield();
    return v;
}

static void root(void *arg)
{
    struct times t = { { 100, 5 } };
    long later;
    (void)arg;
    later = value(20) + t.mtime;
    printf("later %ld\n", later);
}

int main(void) { return rip_run(root, NULL); }
