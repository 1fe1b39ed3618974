/* export.c - a channel as .npy, CSV or raw little-endian; see export.h and
 * man 1 ffexport.  The .npy layout is numpy's own (numpy.lib.format,
 * version 1.0). */
#include "export.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bytesink.h"
#include "realfmt.h"

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

static void npy_header(ff_sink *s, const ff_channel_view *ch, int32_t w, int32_t h)
{
    char dict[160];
    unsigned char head[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0 };
    int len;
    size_t total;

    if (ch->lanes > 1)
        len = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, "
                                          "'shape': (%d, %d, %d), }", npy_descr[ch->type],
                       (int)h, (int)w, ch->lanes);
    else
        len = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, "
                                          "'shape': (%d, %d), }", npy_descr[ch->type],
                       (int)h, (int)w);
    /* Blanks, then a newline, up to a multiple of 64 bytes in all (numpy's
     * alignment of the data). */
    total = (10 + (size_t)len + 1 + 63) / 64 * 64;
    head[8] = (unsigned char)((total - 10) & 0xff);
    head[9] = (unsigned char)((total - 10) >> 8);
    ff_sink_put(s, head, sizeof head);
    ff_sink_put(s, dict, (size_t)len);
    while (10 + (size_t)len + 1 < total) {
        ff_sink_put(s, " ", 1);
        len++;
    }
    ff_sink_put(s, "\n", 1);
}

ff_status ff_export_channel(FILE *out, const ff_channel_view *ch, int32_t w, int32_t h,
                            ff_export_format fmt, ff_error *err)
{
    size_t cells = (size_t)w * (size_t)h, n = cells * (size_t)ch->lanes, k;
    ff_sink *s = malloc(sizeof *s);
    int failed;

    if (!s)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
    ff_sink_init(s, out);
    if (fmt == FF_EXPORT_NPY)
        npy_header(s, ch, w, h);
    if (fmt == FF_EXPORT_CSV)
        ff_sink_put(s, ch->lanes > 1 ? "x,y,lane,value\n" : "x,y,value\n", ch->lanes > 1 ? 15 : 10);
    for (k = 0; k < n && !s->failed; k++) {
        size_t cell = k / (size_t)ch->lanes;
        char line[3 * 24 + FF_REAL_TEXT_MAX + 8];
        int len;
        if (fmt != FF_EXPORT_CSV) {
            ff_sink_le(s, ff_value_bits(ch->type, ch->data, k), ff_type_size(ch->type));
            continue;
        }
        if (ch->lanes > 1)
            len = snprintf(line, sizeof line, "%zu,%zu,%zu,", cell % (size_t)w,
                           cell / (size_t)w, k % (size_t)ch->lanes);
        else
            len = snprintf(line, sizeof line, "%zu,%zu,", cell % (size_t)w, cell / (size_t)w);
        len += (int)ff_format_value(ch->type, ff_channel_value(ch, k), line + len,
                                    sizeof line - (size_t)len);
        line[len++] = '\n';
        ff_sink_put(s, line, (size_t)len);
    }
    failed = ff_sink_flush(s) != 0;
    free(s);
    if (failed || ferror(out))
        return ff_error_set(err, FF_EIO, NULL, 0, 0, "write error: %s", strerror(errno));
    return FF_OK;
}
