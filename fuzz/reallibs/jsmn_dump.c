/* jsmn_dump.c -- fuzz/real_libs.py's jsmn driver: parses the JSON file named
   by argv[1] with jsmn (the token array grows on JSMN_ERROR_NOMEM, and a
   second pass counts tokens with no array), and prints every token: type,
   offsets, size, parent (JSMN_PARENT_LINKS) and text; or the error. */
#include <stdio.h>
#include <stdlib.h>
#include "jsmn.h"
#include "slurp.h"

static const char *type_name(jsmntype_t t)
{
    switch (t) {
    case JSMN_OBJECT: return "object";
    case JSMN_ARRAY: return "array";
    case JSMN_STRING: return "string";
    case JSMN_PRIMITIVE: return "primitive";
    default: return "undefined";
    }
}

int main(int argc, char **argv)
{
    size_t len, cap = 4;
    char *js;
    jsmntok_t *toks = malloc(cap * sizeof *toks);
    jsmn_parser p;
    int n, i, counted;
    if (argc < 2 || !(js = slurp(argv[1], &len, 0)))
        return 2;
    jsmn_init(&p);
    counted = jsmn_parse(&p, js, len, NULL, 0);
    jsmn_init(&p);
    while ((n = jsmn_parse(&p, js, len, toks, (unsigned)cap)) == JSMN_ERROR_NOMEM) {
        cap *= 2;
        toks = realloc(toks, cap * sizeof *toks);
    }
    printf("counted %d parsed %d\n", counted, n);
    for (i = 0; i < n; i++) {
        jsmntok_t *t = &toks[i];
        printf("%d %s %d-%d size %d", i, type_name(t->type), t->start, t->end, t->size);
#ifdef JSMN_PARENT_LINKS
        printf(" parent %d", t->parent);
#endif
        printf(" %.*s\n", t->end - t->start > 60 ? 60 : t->end - t->start, js + t->start);
    }
    free(toks);
    free(js);
    return n < 0 ? 1 : 0;
}
