/* checks: return NULL; in an async function (NULL is a macro, the return is the user's) */
#include <stdio.h>
#include <rip.h>

static const char *lookup(int key)
{
    rip_yield();
    if (key != 1)
        return NULL;
    return "one";
}

static void root(void *arg)
{
    const char *a, *b;
    (void)arg;
    a = lookup(1);
    b = lookup(2);
    printf("%s %s\n", a, b ? b : "(null)");
}

int main(void) { return rip_run(root, NULL); }
