/* checks: string literals, comments and stringified macros mentioning rip_yield() do not confuse ripper */
#include <assert.h>
#include <stdio.h>
#include <rip.h>

#define STR(x) #x
#define XSTR(x) STR(x)
#define SUSPEND rip_yield()
#define SQUARE_INTO(dst, src) ((dst) = (src) * (src))
#define LOG_VAR(v) printf("%s = %d\n", #v, (v))

/* A comment that says rip_yield(); and "x = rip_chan_recv(c, &v);" */
static const char *banner = "call rip_yield(); then rip_sleep_ms(10); /* not a comment */";

static int helper(int n)
{
    int local = n + 1;
    // rip_yield(); in a line comment
    rip_yield();
    assert(local == n + 1);
    return local;
}

static void root(void *arg)
{
    int count = 3;
    int sq = 0;
    const char *quote = "\"rip_yield()\" inside escaped quotes";
    char c = '"';
    (void)arg;
    printf("%s\n", banner);
    printf("macro text: %s\n", STR(rip_yield()));
    printf("expanded text: %s\n", XSTR(SUSPEND));
    printf("%s %c\n", quote, c);
    SUSPEND; /* a macro that expands to an async call */
    count = helper(count);
    assert(count == 4);
    SQUARE_INTO(sq, count);
    LOG_VAR(count);
    LOG_VAR(sq);
    rip_sleep_ms(1); /* rip_yield() in a trailing comment */
    printf("tab\there, brace { in string }, semicolon ; done\n");
}

int main(void)
{
    return rip_run(root, NULL);
}
