/* gcc12-seed60.c -- a gcc 12 -O2 wrong-code bug found by fuzz/gen_async.py
 * seed 60 (gen_diff verdict cc-differs), reduced by hand to a standalone
 * program (no rip runtime).
 *
 * Compiler: gcc (Debian 12.2.0-14+deb12u1) 12.2.0, x86_64.
 *
 *   gcc -O0 gcc12-seed60.c && ./a.out     prints 0   (correct)
 *   gcc -O1 ...                           prints 0
 *   gcc -O2 ...  (also -O3, -Os)          prints 2   (wrong)
 *   gcc -O2 -fno-tree-vrp ...             prints 0   (the flag that hides it;
 *                                         -fno-ssa-phiopt, -fno-tree-ch too)
 *   clang 14 -O2                          prints 0 (it ignores noipa, warns)
 * -fwrapv and -fno-strict-aliasing do not change it; -fsanitize=undefined
 * reports nothing.  There is no undefined behaviour: i is unsigned and never
 * exceeds 3, g is called once with 0 (k is 16, i ? i : 31 is 31), returns 0,
 * so the loop body never runs and i stays 0.
 *
 * What goes wrong (-fdump-tree-all): k is a static never written, so it is
 * folded to 16 only late; phiopt2 then turns (i ? i : 31) == 16 into
 * i == 16, ch2 rotates the loop, and after ivopts the input of vrp2 is
 * still correct:
 *     ivtmp = PHI <0 (entry), ivtmp + 1 (latch)>;  if (g (0) == 0) exit with ivtmp;
 *     ivtmp + 1 != 3 ? latch : exit with 3
 * vrp2 folds the latch test to false (as if ivtmp + 1 were always 3), removes
 * the loop, and the exit value of ivtmp on the g () == 0 edge becomes the
 * constant 2 (optimized dump: i_10 = PHI <3, 2>).
 *
 * In seed 60 this is f4's loop
 *     while (i29 < 3u && (d > 0u ? f3(d - 1u, (unsigned)(K[11] == (i29 ? i29 : K[5]))) : 5u) != 0u)
 * with K a static array never written (K[11] = 16, K[5] = 31): the ucontext
 * build at -O2 mixes i29 = 2 into the checksum where it is 0 (the loop never
 * ran), so its checksum differs from -O0, -O1, -O2 -fno-tree-vrp, clang and
 * the ripped build.  Not a bug in the generator or the runtime.
 */
#include <stdio.h>

static unsigned k = 16;                 /* must be a static (never written) */

/* noipa: an opaque call (with noinline alone, -O2 prints 3, also wrong) */
__attribute__((noipa)) int g(int x) { return x; }

int main(void)
{
    unsigned i = 0;
    while (i < 3 && g(k == (i ? i : 31)))
        i++;
    printf("%u\n", i);
    return 0;
}
