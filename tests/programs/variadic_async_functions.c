/* threads: sorted */
/* Variadic async functions: the `...` arguments reach the body again at
 * every resume; a va_list started before a suspension is usable after it
 * (until va_arg reads it); promotions (char, short, float), arrays, structs,
 * long double, no extra arguments, recursion and async arguments. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "rip.h"
struct big { long a, b, c; double d; };
/* va_list restarted across suspensions: va_start, yield, use, yield, va_end */
RIP_ASYNC static int logf_(const char *fmt, ...) {
    va_list ap;
    char buf[200];
    va_start(ap, fmt);
    rip_yield();
    rip_sleep_ms(1);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    rip_yield();
    va_end(ap);
    fputs(buf, stdout);
    return n;
}
/* va_arg read before any suspension, then suspensions */
RIP_ASYNC static long sum(int count, ...) {
    va_list ap;
    long s = 0;
    va_start(ap, count);
    for (int i = 0; i < count; i++)
        s += va_arg(ap, int);
    va_end(ap);
    rip_yield();
    return s;
}
/* va_arg between suspensions, a fresh va_start each time */
RIP_ASYNC static double mixed(int count, ...) {
    double total = 0;
    for (int i = 0; i < count; i++) {
        va_list ap;
        rip_yield();
        va_start(ap, count);
        for (int j = 0; j < i; j++) (void)va_arg(ap, double);
        total += va_arg(ap, double) * (i + 1);
        va_end(ap);
    }
    return total;
}
RIP_ASYNC static long bigs(int n, ...) {
    va_list ap, aq;
    long s = 0;
    rip_yield();
    va_start(ap, n);
    va_copy(aq, ap);
    for (int i = 0; i < n; i++) { struct big b = va_arg(ap, struct big); s += b.a + b.b + b.c + (long)b.d; }
    for (int i = 0; i < n; i++) { struct big b = va_arg(aq, struct big); s += b.a; }
    va_end(aq);
    va_end(ap);
    return s;
}
RIP_ASYNC static int depth(int n, ...) {
    va_list ap;
    va_start(ap, n);
    const char *tag = va_arg(ap, const char *);
    long double ld = va_arg(ap, long double);
    va_end(ap);
    rip_yield();
    if (n == 0) return (int)ld;
    return depth(n - 1, tag, ld + 1.0L) + (int)strlen(tag);
}
RIP_ASYNC static int none(int n, ...) { rip_yield(); return n; }
static void other(void *arg) { (void)arg; for (int i = 0; i < 3; i++) { printf("other %d\n", i); rip_yield(); } }
static void task(void *arg) {
    char c = 'x'; short sh = -3; float fl = 2.25f; unsigned char uc = 200; char arr[] = "arr";
    struct big b1 = {1, 2, 3, 4.5}, b2 = {10, 20, 30, 40.0};
    (void)arg;
    rip_spawn(other, NULL);
    logf_("%c %d %g %u %s %lld %p\n", c, sh, fl, uc, arr, 1LL << 40, (void *)0);
    logf_("plain\n");
    printf("sum %ld\n", sum(4, 1, 2, 3, 4));
    printf("mixed %g\n", mixed(3, 1.0, 2.0, fl));
    printf("bigs %ld\n", bigs(2, b1, b2));
    printf("depth %d\n", depth(3, "ab", 1.0L));
    printf("none %d %d\n", none(5), none(6, 1, 2.0));
    printf("nested %d\n", logf_("%d-%d\n", sum(2, 5, 6) > 10, none(1, "x")));
}
int main(void) { return rip_run(task, NULL); }
