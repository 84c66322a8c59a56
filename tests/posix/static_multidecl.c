/* Two static async functions declared in one declaration, one of which
 * keeps a plain form beside its ripped one (plain code calls it: a
 * function used as a pointer) and one that cannot (a static local names
 * __func__): the declaration must still declare only functions the ripped
 * file defines (a static one declared and never defined is a warning). */
#include <stdio.h>
#include <unistd.h>

static unsigned twice(unsigned v), named(unsigned v);

static unsigned twice(unsigned v) {
    usleep(0);
    return 2 * v;
}

static unsigned named(unsigned v) {
    static const char *who = __func__;
    usleep(0);
    return v + (unsigned)who[0];
}

static unsigned plus_one(unsigned v) {      /* plain: used as a pointer */
    return twice(v) + 1;
}

static unsigned (*by_pointer)(unsigned) = plus_one;

int main(void) {
    unsigned a = twice(3), b = named(1), c = by_pointer(5);
    printf("twice %u, named %u, by pointer %u\n", a, b, c);
    return 0;
}
