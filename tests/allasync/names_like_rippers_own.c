/* Every name ripper once gave its own locals, labels, frame members and
 * file-scope helpers (rip_F, rip_self, rip_c, rip_r, rip_tN, rip_resume_N,
 * rip_cont_N, rip_hdr, rip_result, rip_w, rip_lit1, rip_d_*, rip_main_*)
 * used by the program itself: as locals (some C locals of the resume entry
 * shadowing in an inner block, some kept across calls in the frame),
 * parameters, labels, globals and functions.  Ripper's names are in rip.h's
 * reserved `rip__` space now, so every one of these is the user's. */
#include <stdio.h>

int rip_F = 40;                             /* globals */
static int rip_main_status = 2;
static char **rip_main_argv;

static int id(int x) { return x; }

static int rip_t1(int x) { return id(x) + 1; }      /* functions */
static int rip_main_task(void *arg) { return arg ? 1 : id(0); }
static int rip_main_resume(int rip_self, int rip_c) { return rip_self * 10 + id(rip_c); }

/* parameters named like the frame's own members and ripper's locals */
static int params(int rip_hdr, int rip_result, int rip_w, int rip_self, int rip_c, int rip_r)
{
    int rip_t2 = id(rip_hdr);
    return rip_t2 + id(rip_result) + rip_w + rip_self + rip_c + id(rip_r);
}

struct pair { int a, b; };

static int labels(int n)
{
    int i = 0, sum = 0;
    goto rip_resume_1;
rip_resume_2:
    return sum + id(100);
rip_resume_1:
    do {                                    /* a call in the condition: a continue label */
        i++;
        if (i == 2)
            continue;
        if (i > 5)
            goto rip_cont_1;
        sum += id(i);
    } while (id(i) < n);
rip_cont_1:
    if (sum < 1000)
        goto rip_resume_2;
    return -1;
}

int main(int argc, char **argv)
{
    int rip_t1_ = rip_t1(1), rip_r = id(2), rip_hdr = id(3), rip_result = 4;
    struct { int v; } rip_d_1 = { 5 };     /* a local type: a dummy in the frame's type */
    int *rip_lit1 = (int[]){ 6, 7 };        /* a compound literal kept in the frame */
    int rip_w = id(rip_lit1[1]);
    rip_main_argv = argv;
    (void)argc;
    {
        /* C locals of the resume entry, named like its own, around calls */
        int rip_self = id(8), rip_c = 9, rip_F = id(10);
        int rip_t3 = rip_self + rip_c + rip_F;
        printf("inner %d %d\n", rip_t3, id(rip_F));
    }
    printf("%d %d %d %d %d %d %d\n", rip_t1_, rip_r, rip_hdr, rip_result, id(rip_d_1.v),
           rip_lit1[0], rip_w);
    printf("params %d\n", params(1, 2, 3, 4, 5, 6));
    printf("labels %d\n", labels(8));
    printf("globals %d %d %d %d\n", id(rip_F), rip_main_status, rip_main_task(0),
           rip_main_resume(3, 4));
    rip_F = id(rip_F) + 1;
    printf("global %d %s\n", rip_F, rip_main_argv == argv ? "argv" : "?");
    return rip_main_status;
}
