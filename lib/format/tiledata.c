/* tiledata.c - the data of a Tiled tile layer as text; see tiledata.h.
 *
 * Compressed data is inflated through a small buffer, gid by gid, never
 * whole: a layer costs its cells once (in t->top), and its size is checked
 * against the most that the data could expand to before that is
 * allocated.  zlib for zlib and gzip, libzstd for zstd. */
#include "tiledata.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

/* Most bytes one byte of input can expand to: deflate's longest match
 * (258 bytes) in two bits; a zstd RLE block (128 KiB from 4 bytes). */
#define DEFLATE_RATIO 1032
#define ZSTD_RATIO 32768

/* Gids assembled from little-endian bytes as they come. */
typedef struct {
    ff_tiled *t;
    size_t cells, at;  /* cells wanted, cells put */
    uint32_t gid;
    int nbytes;        /* bytes of gid so far */
    long line;
} gid_sink;

/* Take n bytes; 0, or -1 when they run past the last cell. */
static int sink_bytes(gid_sink *s, const unsigned char *p, size_t n)
{
    size_t k;

    for (k = 0; k < n; k++) {
        s->gid |= (uint32_t)p[k] << (8 * s->nbytes);
        if (++s->nbytes == 4) {
            if (s->at == s->cells)
                return -1;
            ff_tiled_put(s->t, s->at++, s->gid);
            s->gid = 0;
            s->nbytes = 0;
        }
    }
    return 0;
}

static ff_status wrong_count(const gid_sink *s, const char *what)
{
    return ff_error_set(s->t->err, FF_EINPUT, s->t->name, s->line, 0,
                        "tile layer '%s': %s (the map has %dx%d cells)", s->t->layer_name, what,
                        s->t->w, s->t->h);
}

static ff_status sink_done(const gid_sink *s)
{
    if (s->at != s->cells || s->nbytes != 0)
        return wrong_count(s, "too little data");
    return FF_OK;
}

static ff_status csv(ff_tiled *t, const char *s, size_t len, long line)
{
    size_t n = (size_t)t->w * (size_t)t->h, k = 0, at = 0;
    long here = line;
    ff_status st;

    /* A cell takes a digit and a comma at least. */
    if ((st = ff_tiled_layer_ready(t, (len + 1) / 2, line)) != FF_OK)
        return st;
    for (;;) {
        uint64_t v = 0;
        size_t digits = 0;
        while (k < len && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r' || s[k] == '\n'))
            here += s[k++] == '\n' && here > 0;
        if (k == len && at > 0)
            break;  /* after a last comma */
        while (k < len && s[k] >= '0' && s[k] <= '9' && v <= 0xFFFFFFFFu) {
            v = v * 10 + (uint64_t)(s[k++] - '0');
            digits++;
        }
        if (digits == 0 || v > 0xFFFFFFFFu)
            return ff_error_set(t->err, FF_EINPUT, t->name, here, 0,
                                "tile layer '%s': CSV value %zu is %s, not a gid (0 to 4294967295)",
                                t->layer_name, at + 1,
                                digits ? "too large" : k == len ? "missing" : "not a number");
        if (at == n)
            return ff_error_set(t->err, FF_EINPUT, t->name, here, 0,
                                "tile layer '%s': more than the map's %dx%d cells", t->layer_name,
                                t->w, t->h);
        ff_tiled_put(t, at++, (uint32_t)v);
        while (k < len && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r' || s[k] == '\n'))
            here += s[k++] == '\n' && here > 0;
        if (k == len)
            break;
        if (s[k] != ',')
            return ff_error_set(t->err, FF_EINPUT, t->name, here, 0,
                                "tile layer '%s': expected ',' after CSV value %zu", t->layer_name, at);
        k++;
    }
    if (at != n)
        return ff_error_set(t->err, FF_EINPUT, t->name, line, 0,
                            "tile layer '%s' has %zu tiles, the map %dx%d cells", t->layer_name, at,
                            t->w, t->h);
    return FF_OK;
}

static int base64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Decode base64 (blanks skipped, padding optional at the end) into a new
 * buffer *out of *n bytes. */
static ff_status base64(ff_tiled *t, const char *s, size_t len, long line, unsigned char **out,
                        size_t *n)
{
    size_t k, m = 0, symbols = 0;
    uint32_t acc = 0;
    int bits = 0, pad = 0;

    if (!(*out = malloc(len / 4 * 3 + 3)))
        return ff_error_set(t->err, FF_ENOMEM, t->name, 0, 0, "out of memory");
    for (k = 0; k < len; k++) {
        unsigned char c = (unsigned char)s[k];
        int v = base64_value(c);
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
            continue;
        /* '=' only ends a group of four, after two or three symbols. */
        if (c == '=' && (symbols % 4 >= 2 || pad) && symbols % 4 != 0) {
            pad++;
            symbols++;
            continue;
        }
        if (v < 0 || pad) {
            free(*out);
            *out = NULL;
            return ff_error_set(t->err, FF_EINPUT, t->name, line, 0,
                                "tile layer '%s': bad base64 at byte %zu of its data", t->layer_name, k);
        }
        symbols++;
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            (*out)[m++] = (unsigned char)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    *n = m;
    return FF_OK;
}

static ff_status inflate_zlib(gid_sink *s, const unsigned char *in, size_t n, int gzip)
{
    unsigned char buf[1 << 15];
    z_stream z;
    int ret;

    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, gzip ? 15 + 16 : 15) != Z_OK)
        return ff_error_set(s->t->err, FF_ENOMEM, s->t->name, 0, 0, "out of memory");
    z.next_in = (unsigned char *)in;
    z.avail_in = 0;
    do {
        /* avail_in is an unsigned int: feed a large layer in pieces. */
        if (z.avail_in == 0) {
            size_t used = (size_t)(z.next_in - in), left = n - used;
            z.avail_in = left > (1u << 30) ? 1u << 30 : (unsigned)left;
        }
        z.next_out = buf;
        z.avail_out = sizeof buf;
        ret = inflate(&z, Z_NO_FLUSH);
        if (ret == Z_MEM_ERROR) {
            inflateEnd(&z);
            return ff_error_set(s->t->err, FF_ENOMEM, s->t->name, 0, 0, "out of memory for %s",
                                gzip ? "gzip" : "zlib");
        }
        if ((ret != Z_OK && ret != Z_STREAM_END) ||
            sink_bytes(s, buf, sizeof buf - z.avail_out) < 0) {
            const char *why = ret == Z_BUF_ERROR ? "truncated" : ret == Z_OK || ret == Z_STREAM_END
                              ? "too much data" : z.msg ? z.msg : "bad data";
            inflateEnd(&z);
            return ff_error_set(s->t->err, FF_EINPUT, s->t->name, s->line, 0,
                                "tile layer '%s': %s %s", s->t->layer_name,
                                gzip ? "gzip" : "zlib", why);
        }
    } while (ret != Z_STREAM_END);
    ret = z.avail_in != 0 || (size_t)(z.next_in - in) != n;
    inflateEnd(&z);
    if (ret)
        return wrong_count(s, "bytes after the compressed data");
    return sink_done(s);
}

static ff_status inflate_zstd(gid_sink *s, const unsigned char *in, size_t n)
{
    unsigned char buf[1 << 15];
    ZSTD_DCtx *d = ZSTD_createDCtx();
    ZSTD_inBuffer src = { in, n, 0 };
    size_t ret;

    if (!d)
        return ff_error_set(s->t->err, FF_ENOMEM, s->t->name, 0, 0, "out of memory");
    for (;;) {
        ZSTD_outBuffer dst = { buf, sizeof buf, 0 };
        ret = ZSTD_decompressStream(d, &dst, &src);
        if (ZSTD_isError(ret) && ZSTD_getErrorCode(ret) == ZSTD_error_memory_allocation) {
            ZSTD_freeDCtx(d);
            return ff_error_set(s->t->err, FF_ENOMEM, s->t->name, 0, 0, "out of memory for zstd");
        }
        if (ZSTD_isError(ret) || sink_bytes(s, buf, dst.pos) < 0) {
            const char *why = ZSTD_isError(ret) ? ZSTD_getErrorName(ret) : "too much data";
            ZSTD_freeDCtx(d);
            return ff_error_set(s->t->err, FF_EINPUT, s->t->name, s->line, 0,
                                "tile layer '%s': zstd: %s", s->t->layer_name, why);
        }
        if (ret == 0)
            break;
        if (src.pos == src.size && dst.pos < dst.size) {
            ZSTD_freeDCtx(d);
            return wrong_count(s, "zstd data truncated");
        }
    }
    ZSTD_freeDCtx(d);
    if (src.pos != src.size)
        return wrong_count(s, "bytes after the compressed data");
    return sink_done(s);
}

ff_status ff_tiled_data(ff_tiled *t, const char *encoding, const char *compression,
                        const char *text, size_t len, long line)
{
    gid_sink s;
    unsigned char *bytes = NULL;
    size_t nbytes = 0;
    ff_status st;
    int gzip = strcmp(compression, "gzip") == 0, zlib = strcmp(compression, "zlib") == 0;
    int zstd = strcmp(compression, "zstd") == 0;

    if (strcmp(encoding, "csv") == 0) {
        if (compression[0])
            return ff_error_set(t->err, FF_EINPUT, t->name, line, 0,
                                "tile layer '%s': CSV data cannot be compressed ('%.20s')",
                                t->layer_name, compression);
        return csv(t, text, len, line);
    }
    if (strcmp(encoding, "base64") != 0)
        return ff_error_set(t->err, FF_EINPUT, t->name, line, 0,
                            "tile layer '%s': unknown encoding '%.20s' (this reads csv and base64)",
                            t->layer_name, encoding);
    if (compression[0] && !gzip && !zlib && !zstd)
        return ff_error_set(t->err, FF_EINPUT, t->name, line, 0,
                            "tile layer '%s': unknown compression '%.20s' (this reads zlib, gzip "
                            "and zstd)", t->layer_name, compression);
    if ((st = base64(t, text, len, line, &bytes, &nbytes)) != FF_OK)
        return st;
    st = ff_tiled_layer_ready(t, compression[0] == '\0' ? nbytes / 4
                                 : ((uint64_t)nbytes + 1) * (zstd ? ZSTD_RATIO : DEFLATE_RATIO) / 4,
                              line);
    if (st == FF_OK) {
        memset(&s, 0, sizeof s);
        s.t = t;
        s.cells = (size_t)t->w * (size_t)t->h;
        s.line = line;
        if (zstd)
            st = inflate_zstd(&s, bytes, nbytes);
        else if (gzip || zlib)
            st = inflate_zlib(&s, bytes, nbytes, gzip);
        else if (nbytes != 4 * s.cells)
            st = wrong_count(&s, nbytes < 4 * s.cells ? "too little data" : "too much data");
        else {
            sink_bytes(&s, bytes, nbytes);
            st = sink_done(&s);
        }
    }
    free(bytes);
    return st;
}
