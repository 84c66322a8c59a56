/* slurp.h -- the drivers' one file reader (each driver is one translation
   unit with its library, so this is a static function in a header).
   slurp(path, &len, pad): the whole file in a malloc'd buffer followed by
   `pad` zero bytes (a C string's end, yyjson's padding), its size in
   *len; a file that cannot be read whole counts as empty; NULL when it
   cannot be opened. */
#include <stdio.h>
#include <stdlib.h>

static char *slurp(const char *path, size_t *len, size_t pad)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n < 0)
        n = 0;
    buf = calloc((size_t)n + pad + 1, 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n)
        n = 0;
    fclose(f);
    *len = (size_t)n;
    return buf;
}
