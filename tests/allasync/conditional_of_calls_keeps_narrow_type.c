/* checks: a ?: whose arms call functions, assigned to a narrower type (zlib's deflate: `bstate = level == 0 ? deflate_stored(s, flush) : ...` into an enum; stb_image: `a = (easy == 2 ? stbi__get8(s) : 255)` into an unsigned char), builds warning-free under -Wc++-compat -Werror and -Wconversion -Werror, as the plain build does */
/* cflags: -Wc++-compat -Werror */
#include <stdio.h>

typedef enum { need_more, block_done, finish_done } block_state;

static block_state one(int x)
{
    return x ? block_done : need_more;
}

static block_state two(int x)
{
    return x ? finish_done : need_more;
}

static unsigned char get8(int x)
{
    return (unsigned char)(x * 3);
}

int main(int argc, char **argv)
{
    block_state s;
    unsigned char a;
    (void)argv;
    s = argc == 1 ? one(argc) : two(argc);
    a = (argc == 2 ? get8(argc) : 255);
    printf("%d %d\n", (int)s, a);
    return 0;
}
