/* yyjson_dump.c -- fuzz/real_libs.py's yyjson driver: reads the JSON file
   named by argv[1] under several read flags (strict, comments and trailing
   commas, inf/nan, numbers as raw text); for each, prints the error or
   every value (type, number, string) depth first, writes the document
   minified and pretty, copies it into a mutable document, edits that
   (adds, removes, inserts, a merge patch), compares, writes it again, and
   looks values up by JSON pointer.  Then it parses numbers one by one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "yyjson.h"
#include "slurp.h"

static void walk(yyjson_val *v, int depth)
{
    size_t idx, max;
    yyjson_val *key, *item;
    printf("%*s%s", depth * 2, "", yyjson_get_type_desc(v));
    switch (yyjson_get_type(v)) {
    case YYJSON_TYPE_NUM:
        if (yyjson_is_real(v))
            printf(" %.17g", yyjson_get_real(v));
        else if (yyjson_is_sint(v))
            printf(" %lld", (long long)yyjson_get_sint(v));
        else
            printf(" %llu", (unsigned long long)yyjson_get_uint(v));
        break;
    case YYJSON_TYPE_RAW:
    case YYJSON_TYPE_STR:
        printf(" [%.*s] len=%zu", (int)yyjson_get_len(v), yyjson_get_str(v), yyjson_get_len(v));
        break;
    case YYJSON_TYPE_BOOL:
        printf(" %d", yyjson_get_bool(v));
        break;
    default:
        break;
    }
    printf("\n");
    if (yyjson_is_arr(v)) {
        yyjson_arr_foreach(v, idx, max, item) walk(item, depth + 1);
    } else if (yyjson_is_obj(v)) {
        yyjson_obj_foreach(v, idx, max, key, item) {
            printf("%*skey [%s]\n", depth * 2 + 2, "", yyjson_get_str(key));
            walk(item, depth + 2);
        }
    }
}

static void write_out(const char *what, yyjson_doc *doc, yyjson_mut_doc *mdoc,
                      yyjson_write_flag flags)
{
    yyjson_write_err err;
    size_t len = 0;
    char *text = doc ? yyjson_write_opts(doc, flags, NULL, &len, &err)
                     : yyjson_mut_write_opts(mdoc, flags, NULL, &len, &err);
    if (text)
        printf("%s (%zu bytes):\n%s\n", what, len, text);
    else
        printf("%s: write error %u %s\n", what, err.code, err.msg);
    free(text);
}

static void edit(yyjson_doc *doc)
{
    yyjson_mut_doc *m = yyjson_doc_mut_copy(doc, NULL);
    yyjson_mut_doc *patch_doc = yyjson_mut_doc_new(NULL);
    yyjson_mut_val *root = yyjson_mut_doc_get_root(m), *patch, *merged, *arr;
    printf("mutable copy equal: %d\n",
           yyjson_mut_equals(root, yyjson_val_mut_copy(patch_doc, yyjson_doc_get_root(doc))));
    if (yyjson_mut_is_obj(root)) {
        yyjson_mut_obj_add_str(m, root, "added", "by the driver");
        yyjson_mut_obj_add_int(m, root, "count", (int64_t)yyjson_mut_obj_size(root));
        yyjson_mut_obj_remove_key(root, "k0");
    } else if (yyjson_mut_is_arr(root)) {
        yyjson_mut_arr_insert(root, yyjson_mut_real(m, 0.1 + 0.2), 0);
        yyjson_mut_arr_add_str(m, root, "tail");
        if (yyjson_mut_arr_size(root) > 3)
            yyjson_mut_arr_remove(root, 2);
    }
    patch = yyjson_mut_obj(patch_doc);
    yyjson_mut_obj_add_null(patch_doc, patch, "added");
    yyjson_mut_obj_add_str(patch_doc, patch, "new", "value");
    arr = yyjson_mut_arr_with_sint64(patch_doc, (int64_t[]){-1, 9007199254740993LL, 0}, 3);
    yyjson_mut_obj_add_val(patch_doc, patch, "numbers", arr);
    merged = yyjson_mut_merge_patch(m, root, patch);
    yyjson_mut_doc_set_root(m, merged ? merged : root);
    write_out("edited", NULL, m, YYJSON_WRITE_PRETTY_TWO_SPACES | YYJSON_WRITE_ESCAPE_UNICODE);
    yyjson_mut_doc_free(patch_doc);
    yyjson_mut_doc_free(m);
}

int main(int argc, char **argv)
{
    static const struct { const char *name; yyjson_read_flag flags; } modes[] = {
        {"strict", YYJSON_READ_NOFLAG},
        {"lenient", YYJSON_READ_ALLOW_COMMENTS | YYJSON_READ_ALLOW_TRAILING_COMMAS
                    | YYJSON_READ_ALLOW_INF_AND_NAN | YYJSON_READ_ALLOW_INVALID_UNICODE},
        {"raw numbers", YYJSON_READ_NUMBER_AS_RAW | YYJSON_READ_STOP_WHEN_DONE},
        {"bignum raw", YYJSON_READ_BIGNUM_AS_RAW | YYJSON_READ_ALLOW_INF_AND_NAN},
    };
    static const char *pointers[] = {"", "/0", "/a/0", "/k1", "/0/k0/1", "/a/1/k2", "/~1x"};
    static const char *numbers[] = {"0", "-0", "1e400", "123456789012345678901234", "-1.5e-310",
                                    "0.1", "18446744073709551615", "18446744073709551616",
                                    "-9223372036854775808", "1.7976931348623157e308", "2.5e-324",
                                    "01", "1.", "NaN", "-Infinity", "3.141592653589793238462643"};
    size_t len, i, m;
    char *data;
    if (argc != 2 || !(data = slurp(argv[1], &len, YYJSON_PADDING_SIZE))) {
        fprintf(stderr, "usage: yyjson_dump FILE\n");
        return 2;
    }
    printf("yyjson %s\n", yyjson_version() == YYJSON_VERSION_HEX ? YYJSON_VERSION_STRING : "?");
    for (m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        yyjson_read_err err;
        yyjson_doc *doc = yyjson_read_opts(data, len, modes[m].flags, NULL, &err);
        printf("== %s\n", modes[m].name);
        if (!doc) {
            printf("error %u at %zu: %s\n", err.code, err.pos, err.msg);
            continue;
        }
        printf("%zu values, %zu bytes read\n", yyjson_doc_get_val_count(doc),
               yyjson_doc_get_read_size(doc));
        walk(yyjson_doc_get_root(doc), 0);
        write_out("minified", doc, NULL, YYJSON_WRITE_ALLOW_INF_AND_NAN);
        write_out("pretty", doc, NULL, YYJSON_WRITE_PRETTY | YYJSON_WRITE_ESCAPE_SLASHES
                  | YYJSON_WRITE_INF_AND_NAN_AS_NULL);
        for (i = 0; i < sizeof pointers / sizeof pointers[0]; i++) {
            yyjson_val *v = yyjson_ptr_get(yyjson_doc_get_root(doc), pointers[i]);
            printf("pointer [%s]: %s\n", pointers[i], v ? yyjson_get_type_desc(v) : "none");
        }
        edit(doc);
        yyjson_doc_free(doc);
    }
    for (i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        yyjson_val v;
        yyjson_read_err err;
        if (yyjson_read_number(numbers[i], &v, YYJSON_READ_ALLOW_INF_AND_NAN, NULL, &err))
            printf("number %s: %s %.17g\n", numbers[i], yyjson_get_type_desc(&v),
                   yyjson_is_real(&v) ? yyjson_get_real(&v) : (double)yyjson_get_sint(&v));
        else
            printf("number %s: error %u %s\n", numbers[i], err.code, err.msg);
    }
    free(data);
    return 0;
}
