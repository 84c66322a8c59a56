/* Static locals under --all-async: one whose declaration declares its
 * type (named or not) moves to file scope with it, shared by the plain
 * and the ripped definition; one of a type another statement declares
 * stays, and its function is left plain.  Both keep their values across
 * calls. */
#include <stdio.h>

struct entry { int other; };    /* a file-scope tag of another name */

static int twice(int x) { return 2 * x; }

static int named(int k)
{
    static struct counter { int hits; const char *name; } counters[] = { {0, "a"}, {0, "b"} };
    counters[k].hits += twice(1);
    return counters[k].hits;
}

static int unnamed(int k)
{
    static const struct { const char *word; int value; } words[] = { {"one", 1}, {"two", 2} };
    static enum { IDLE, BUSY } state;
    state = state == IDLE ? BUSY : IDLE;
    return twice(words[k].value) + (int)state;
}

static int lookup(int k)
{
    struct pair { int key, value; };
    static struct pair table[] = { {1, 10}, {2, 20} };
    table[k].value += twice(k);
    return table[k].value;
}

int main(void)
{
    int i, sum = 0;
    for (i = 0; i < 4; i++) {
        sum += named(i % 2);
        sum += unnamed(i % 2);
        sum += lookup(i % 2);
    }
    printf("%d %d %d\n", sum, named(0), lookup(1));
    return 0;
}
