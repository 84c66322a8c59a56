/* stbi_decode.c -- fuzz/real_libs.py's stb_image driver: decodes each file named
   (8-bit, 16-bit, float, forced RGBA from memory, grey flipped, info, GIF
   frames) and prints a checksum of the pixels or the failure reason.  Built
   with stb_image.h in one translation unit, so that the decoders run ripped. */
#define STB_IMAGE_IMPLEMENTATION
#include "stb_image.h"
#include "slurp.h"
#include <stdio.h>
#include <stdlib.h>

static unsigned long fnv(const unsigned char *p, size_t n)
{
    unsigned long h = 2166136261u;
    size_t i;
    for (i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h & 0xffffffffu;
}

int main(int argc, char **argv)
{
    int a;
    for (a = 1; a < argc; a++) {
        int w, h, n, len;
        unsigned char *d = stbi_load(argv[a], &w, &h, &n, 0);
        unsigned char *mem;
        size_t size;
        if (!d) printf("%s: u8 fail %s\n", argv[a], stbi_failure_reason());
        else { printf("%s: u8 %dx%dx%d %08lx\n", argv[a], w, h, n, fnv(d, (size_t)w * h * n)); stbi_image_free(d); }
        {
            stbi_us *s = stbi_load_16(argv[a], &w, &h, &n, 0);
            if (!s) printf("  u16 fail %s\n", stbi_failure_reason());
            else { printf("  u16 %dx%dx%d %08lx\n", w, h, n, fnv((unsigned char *)s, (size_t)w * h * n * 2)); stbi_image_free(s); }
        }
        {
            float *f = stbi_loadf(argv[a], &w, &h, &n, 0);
            if (!f) printf("  f32 fail %s\n", stbi_failure_reason());
            else { printf("  f32 %dx%dx%d %08lx\n", w, h, n, fnv((unsigned char *)f, (size_t)w * h * n * 4)); stbi_image_free(f); }
        }
        mem = (unsigned char *)slurp(argv[a], &size, 0);
        len = (int)size;
        if (mem) {
            int ok = stbi_info_from_memory(mem, len, &w, &h, &n);
            printf("  info %d %dx%dx%d 16bit=%d hdr=%d\n", ok, ok ? w : 0, ok ? h : 0, ok ? n : 0,
                   stbi_is_16_bit_from_memory(mem, len), stbi_is_hdr_from_memory(mem, len));
            d = stbi_load_from_memory(mem, len, &w, &h, &n, 4);
            if (!d) printf("  rgba fail %s\n", stbi_failure_reason());
            else { printf("  rgba %dx%d %08lx\n", w, h, fnv(d, (size_t)w * h * 4)); stbi_image_free(d); }
            stbi_set_flip_vertically_on_load(1);
            d = stbi_load_from_memory(mem, len, &w, &h, &n, 1);
            stbi_set_flip_vertically_on_load(0);
            if (!d) printf("  grey-flip fail %s\n", stbi_failure_reason());
            else { printf("  grey-flip %dx%d %08lx\n", w, h, fnv(d, (size_t)w * h)); stbi_image_free(d); }
            {
                int *delays = NULL, z, comp;
                d = stbi_load_gif_from_memory(mem, len, &delays, &w, &h, &z, &comp, 4);
                if (d) { printf("  gif %dx%dx%d frames %08lx delay0 %d\n", w, h, z, fnv(d, (size_t)w * h * z * 4), delays ? delays[0] : -1); stbi_image_free(d); free(delays); }
            }
            free(mem);
        }
    }
    return 0;
}
