/* lz4_roundtrip.c -- fuzz/real_libs.py's lz4 driver: compresses the file
   named by argv[1] every way lz4 offers (block: default, fast at several
   accelerations, HC at levels 1-12, destSize, streaming with linked blocks
   and with a dictionary; frame: block sizes, linked and independent blocks,
   checksums, fed in small pieces) and decompresses each result (whole,
   partial, streaming, in small pieces, and a corrupted copy).  Prints sizes,
   XXH32 of every compressed stream and whether the round trip holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lz4.h"
#include "lz4hc.h"
#include "lz4frame.h"
#include "xxhash.h"
#include "slurp.h"

static void report(const char *what, const char *src, int len, const char *comp, int clen,
                   const char *back, int blen)
{
    printf("%-28s %8d -> %8d xxh32=%08x roundtrip=%s\n", what, len, clen,
           clen > 0 ? (unsigned)XXH32(comp, (size_t)clen, 0) : 0u,
           blen == len && !memcmp(src, back, (size_t)len) ? "ok" : "BAD");
}

static void block(const char *src, int len)
{
    int bound = LZ4_compressBound(len), clen, blen, level, i;
    char *comp = malloc((size_t)bound + 1), *back = malloc((size_t)len + 64);
    static const int accel[] = {1, 2, 4, 17, 65537};
    char what[64];
    void *state = malloc((size_t)LZ4_sizeofState());

    clen = LZ4_compress_default(src, comp, len, bound);
    blen = LZ4_decompress_safe(comp, back, clen, len + 64);
    report("block default", src, len, comp, clen, back, blen);
    for (i = 0; i < 5; i++) {
        clen = LZ4_compress_fast_extState(state, src, comp, len, bound, accel[i]);
        blen = LZ4_decompress_safe(comp, back, clen, len);
        sprintf(what, "block fast %d", accel[i]);
        report(what, src, len, comp, clen, back, blen);
    }
    for (level = 1; level <= 12; level++) {
        clen = LZ4_compress_HC(src, comp, len, bound, level);
        memset(back, 0, (size_t)len);
        blen = LZ4_decompress_fast(comp, back, len) == clen ? len : -1;
        sprintf(what, "block hc %d", level);
        report(what, src, len, comp, clen, back, blen);
    }
    if (len > 16) {
        int taken = len, part;
        clen = LZ4_compress_destSize(src, comp, &taken, len / 3 + 16);
        blen = LZ4_decompress_safe(comp, back, clen, len);
        printf("block destSize %d: took %d into %d, decoded %d %s\n", len / 3 + 16, taken,
               clen, blen, blen == taken && !memcmp(src, back, (size_t)taken) ? "ok" : "BAD");
        clen = LZ4_compress_default(src, comp, len, bound);
        part = LZ4_decompress_safe_partial(comp, back, clen, len / 2, len);
        printf("block partial %d: %d %s\n", len / 2, part,
               part >= len / 2 && !memcmp(src, back, (size_t)(len / 2)) ? "ok" : "BAD");
        /* a corrupted copy must be refused or decoded within bounds */
        for (i = 0; i < 6; i++)
            comp[(i * 7919) % clen] ^= (char)(0x5a + i);
        printf("block corrupted: %d\n", LZ4_decompress_safe(comp, back, clen, len));
    }
    free(state);
    free(comp);
    free(back);
}

/* Linked blocks of 4 KB (each may refer to the ones before), and the same
   with the first 8 KB loaded as a dictionary. */
static void streaming(const char *src, int len)
{
    enum { BLOCK = 4096 };
    LZ4_stream_t *s = LZ4_createStream();
    LZ4_streamHC_t *hc = LZ4_createStreamHC();
    LZ4_streamDecode_t *d = LZ4_createStreamDecode();
    char *comp = malloc((size_t)LZ4_compressBound(len) + 16 * (len / BLOCK + 1));
    char *back = malloc((size_t)len + 1);
    int pass;
    for (pass = 0; pass < 3; pass++) {
        int pos = 0, cpos = 0, sizes[4096], nblocks = 0, i, bpos = 0, ok = 1;
        int dict = len > 3 * 8192 ? 8192 : 0;
        const char *names[] = {"stream linked", "stream dict", "stream hc linked"};
        if (pass == 2) {
            LZ4_resetStreamHC_fast(hc, 9);
        } else {
            LZ4_resetStream_fast(s);
            if (pass == 1 && dict)
                LZ4_loadDict(s, src, dict);
        }
        for (pos = pass == 1 ? dict : 0; pos < len && nblocks < 4096; pos += BLOCK) {
            int n = len - pos < BLOCK ? len - pos : BLOCK;
            int c = pass == 2 ? LZ4_compress_HC_continue(hc, src + pos, comp + cpos, n,
                                                         LZ4_compressBound(n))
                              : LZ4_compress_fast_continue(s, src + pos, comp + cpos, n,
                                                           LZ4_compressBound(n), 1);
            sizes[nblocks++] = c;
            cpos += c;
        }
        bpos = pass == 1 ? dict : 0;
        memcpy(back, src, (size_t)bpos);
        LZ4_setStreamDecode(d, pass == 1 ? src : NULL, pass == 1 ? dict : 0);
        for (i = 0, cpos = 0; i < nblocks; i++) {
            int r = LZ4_decompress_safe_continue(d, comp + cpos, back + bpos, sizes[i],
                                                 len - bpos);
            if (r < 0) {
                ok = 0;
                break;
            }
            cpos += sizes[i];
            bpos += r;
        }
        report(names[pass], src, len, comp, cpos, back, ok ? bpos : -1);
    }
    LZ4_freeStream(s);
    LZ4_freeStreamHC(hc);
    LZ4_freeStreamDecode(d);
    free(comp);
    free(back);
}

static void frame(const char *src, int len)
{
    static const LZ4F_blockSizeID_t sizes[] = {LZ4F_max64KB, LZ4F_max256KB, LZ4F_max1MB};
    int variant;
    for (variant = 0; variant < 12; variant++) {
        LZ4F_preferences_t prefs;
        LZ4F_cctx *cctx;
        LZ4F_dctx *dctx;
        size_t bound, clen = 0, r, pos, blen = 0, piece = variant % 2 ? 1000 : 7;
        char *comp, *back = malloc((size_t)len + 1), what[64];
        memset(&prefs, 0, sizeof prefs);
        prefs.frameInfo.blockSizeID = sizes[variant % 3];
        prefs.frameInfo.blockMode = variant & 4 ? LZ4F_blockIndependent : LZ4F_blockLinked;
        prefs.frameInfo.contentChecksumFlag = variant & 1 ? LZ4F_contentChecksumEnabled : 0;
        prefs.frameInfo.blockChecksumFlag = variant & 2 ? LZ4F_blockChecksumEnabled : 0;
        prefs.frameInfo.contentSize = variant & 8 ? (unsigned long long)len : 0;
        prefs.compressionLevel = variant < 6 ? variant - 2 : variant;
        prefs.autoFlush = variant & 1;
        bound = LZ4F_compressFrameBound((size_t)len, &prefs) + LZ4F_compressBound(0, &prefs);
        comp = malloc(bound + 64);
        if (variant % 3 == 0) {
            clen = LZ4F_compressFrame(comp, bound, src, (size_t)len, &prefs);
        } else {    /* the streaming frame API, in pieces of 5000 bytes */
            LZ4F_createCompressionContext(&cctx, LZ4F_VERSION);
            clen = LZ4F_compressBegin(cctx, comp, bound, &prefs);
            for (pos = 0; pos < (size_t)len && !LZ4F_isError(clen); pos += 5000) {
                size_t n = (size_t)len - pos < 5000 ? (size_t)len - pos : 5000;
                r = LZ4F_compressUpdate(cctx, comp + clen, bound - clen, src + pos, n, NULL);
                if (LZ4F_isError(r))
                    clen = r;
                else
                    clen += r;
            }
            if (!LZ4F_isError(clen)) {
                r = LZ4F_compressEnd(cctx, comp + clen, bound - clen, NULL);
                clen = LZ4F_isError(r) ? r : clen + r;
            }
            LZ4F_freeCompressionContext(cctx);
        }
        if (LZ4F_isError(clen)) {
            printf("frame %d: error %s\n", variant, LZ4F_getErrorName(clen));
            free(comp);
            free(back);
            continue;
        }
        LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION);
        for (pos = 0; pos < clen;) {
            size_t in = clen - pos < piece ? clen - pos : piece, out = (size_t)len - blen;
            r = LZ4F_decompress(dctx, back + blen, &out, comp + pos, &in, NULL);
            if (LZ4F_isError(r)) {
                printf("frame %d: decompress error %s\n", variant, LZ4F_getErrorName(r));
                blen = (size_t)-1;
                break;
            }
            pos += in;
            blen += out;
            if (r == 0)
                break;
        }
        LZ4F_freeDecompressionContext(dctx);
        sprintf(what, "frame %d level %d", variant, prefs.compressionLevel);
        report(what, src, len, comp, (int)clen, back, (int)blen);
        free(comp);
        free(back);
    }
}

int main(int argc, char **argv)
{
    int i;
    printf("lz4 %s\n", LZ4_versionString());
    for (i = 1; i < argc; i++) {
        size_t size;
        char *src = slurp(argv[i], &size, 0);
        int len = (int)size;
        if (!src) {
            printf("%s: cannot read\n", argv[i]);
            return 2;
        }
        printf("== %s xxh32=%08x xxh64=%016llx\n", strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i],
               (unsigned)XXH32(src, (size_t)len, 0), (unsigned long long)XXH64(src, (size_t)len, 1));
        block(src, len);
        streaming(src, len);
        frame(src, len);
        free(src);
    }
    return 0;
}
