/* export.c - a channel as .npy, CSV or raw little-endian; see export.h and
 * man 1 ffexport.  The .npy layout is numpy's own (numpy.lib.format,
 * version 1.0). */
#include "export.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "realfmt.h"

#define CHUNK 65536

static const char *const npy_descr[] = { "|u1", "<u2", "<u4", "<i4", "<f4", "<f8" };

const char *ff_npy_descr(ff_type t)
{
    return npy_descr[t];
}

int ff_export_format_of(const char *path, ff_export_format *out)
{
    static const struct { const char *ext; ff_export_format fmt; } ext[] = {
        { ".npy", FF_EXPORT_NPY }, { ".csv", FF_EXPORT_CSV }, { ".raw", FF_EXPORT_RAW },
    };
    size_t n = strlen(path), k, i;

    for (k = 0; k < sizeof ext / sizeof *ext; k++) {
        if (n <= 4)
            continue;
        for (i = 0; i < 4; i++)
            if (tolower((unsigned char)path[n - 4 + i]) != ext[k].ext[i])
                break;
        if (i == 4) {
            *out = ext[k].fmt;
            return 1;
        }
    }
    return 0;
}

/* Output through a buffer of CHUNK bytes. */
typedef struct {
    FILE *out;
    unsigned char buf[CHUNK];
    size_t n;
    int failed;
} sink;

static void flush(sink *s)
{
    if (s->n > 0 && fwrite(s->buf, 1, s->n, s->out) != s->n)
        s->failed = 1;
    s->n = 0;
}

static void put(sink *s, const void *p, size_t len)
{
    const unsigned char *b = p;

    while (len > 0) {
        size_t take = CHUNK - s->n < len ? CHUNK - s->n : len;
        memcpy(s->buf + s->n, b, take);
        s->n += take;
        b += take;
        len -= take;
        if (s->n == CHUNK)
            flush(s);
    }
}

/* Value k of ch, little-endian, byte by byte. */
static void put_le(sink *s, const ff_channel_view *ch, size_t k)
{
    size_t size = ff_type_size(ch->type), i;
    uint64_t v = ff_value_bits(ch->type, ch->data, k);
    unsigned char b[8];

    for (i = 0; i < size; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    put(s, b, size);
}

static void npy_header(sink *s, const ff_channel_view *ch, int32_t w, int32_t h)
{
    char dict[160];
    unsigned char head[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0 };
    int len;
    size_t total;

    if (ch->lanes == 8)
        len = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, "
                                          "'shape': (%d, %d, 8), }", npy_descr[ch->type],
                       (int)h, (int)w);
    else
        len = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, "
                                          "'shape': (%d, %d), }", npy_descr[ch->type],
                       (int)h, (int)w);
    /* Blanks, then a newline, up to a multiple of 64 bytes in all (numpy's
     * alignment of the data). */
    total = (10 + (size_t)len + 1 + 63) / 64 * 64;
    head[8] = (unsigned char)((total - 10) & 0xff);
    head[9] = (unsigned char)((total - 10) >> 8);
    put(s, head, sizeof head);
    put(s, dict, (size_t)len);
    while (10 + (size_t)len + 1 < total) {
        put(s, " ", 1);
        len++;
    }
    put(s, "\n", 1);
}

ff_status ff_export_channel(FILE *out, const ff_channel_view *ch, int32_t w, int32_t h,
                            ff_export_format fmt, ff_error *err)
{
    size_t cells = (size_t)w * (size_t)h, n = cells * (size_t)ch->lanes, k;
    sink *s = malloc(sizeof *s);
    int failed;

    if (!s)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
    s->out = out;
    s->n = 0;
    s->failed = 0;
    if (fmt == FF_EXPORT_NPY)
        npy_header(s, ch, w, h);
    if (fmt == FF_EXPORT_CSV)
        put(s, ch->lanes == 8 ? "x,y,lane,value\n" : "x,y,value\n", ch->lanes == 8 ? 15 : 10);
    for (k = 0; k < n && !s->failed; k++) {
        size_t cell = k / (size_t)ch->lanes;
        char line[3 * 24 + FF_REAL_TEXT_MAX + 8];
        int len;
        if (fmt != FF_EXPORT_CSV) {
            put_le(s, ch, k);
            continue;
        }
        if (ch->lanes == 8)
            len = snprintf(line, sizeof line, "%zu,%zu,%zu,", cell % (size_t)w,
                           cell / (size_t)w, k % 8);
        else
            len = snprintf(line, sizeof line, "%zu,%zu,", cell % (size_t)w, cell / (size_t)w);
        len += (int)ff_format_value(ch->type, ff_channel_value(ch, k), line + len,
                                    sizeof line - (size_t)len);
        line[len++] = '\n';
        put(s, line, (size_t)len);
    }
    flush(s);
    failed = s->failed;
    free(s);
    if (failed || ferror(out))
        return ff_error_set(err, FF_EIO, NULL, 0, 0, "write error: %s", strerror(errno));
    return FF_OK;
}
