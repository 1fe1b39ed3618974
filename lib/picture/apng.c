/* apng.c - APNG output with zlib, chunks framed byte by byte; see apng.h.
 * The chunk layout is the APNG 1.0 specification's: acTL before the first
 * IDAT, an fcTL before each frame's data, fcTL and fdAT sharing one
 * sequence starting at 0. */
#include "apng.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define CHUNK_DATA 65536  /* compressed bytes per IDAT or fdAT, at most */

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static ff_status io_error(const ff_apng_writer *w, ff_error *err)
{
    return ff_error_set(err, FF_EIO, w->name, 0, 0, "write error: %s",
                        errno ? strerror(errno) : "short write");
}

/* One chunk: length, type, data, and the CRC of type and data. */
static ff_status chunk(ff_apng_writer *w, const char *type, const uint8_t *data, size_t n,
                       ff_error *err)
{
    uint8_t head[8], tail[4];
    uLong crc = crc32(0, (const Bytef *)type, 4);

    if (n)
        crc = crc32(crc, data, (uInt)n);
    put32(head, (uint32_t)n);
    memcpy(head + 4, type, 4);
    put32(tail, (uint32_t)crc);
    errno = 0;
    if (fwrite(head, 1, 8, w->f) != 8 || (n && fwrite(data, 1, n, w->f) != n) ||
        fwrite(tail, 1, 4, w->f) != 4)
        return io_error(w, err);
    return FF_OK;
}

/* Send the compressed bytes waiting: IDAT for the first frame, fdAT
 * (with its sequence number in front) for the others. */
static ff_status flush_data(ff_apng_writer *w, ff_error *err)
{
    ff_status st;

    if (!w->nout)
        return FF_OK;
    if (w->frame == 1) {
        st = chunk(w, "IDAT", w->out + 4, w->nout, err);
    } else {
        put32(w->out, w->seq++);
        st = chunk(w, "fdAT", w->out, w->nout + 4, err);
    }
    w->nout = 0;
    return st;
}

/* Deflate n bytes (or finish the stream with flush Z_FINISH), sending full
 * chunks as they fill. */
static ff_status deflate_some(ff_apng_writer *w, const uint8_t *in, size_t n, int flush,
                              ff_error *err)
{
    z_stream *z = w->z;
    ff_status st;
    int rc;

    z->next_in = (Bytef *)(uintptr_t)in;
    z->avail_in = (uInt)n;
    do {
        z->next_out = w->out + 4 + w->nout;
        z->avail_out = (uInt)(CHUNK_DATA - w->nout);
        rc = deflate(z, flush);
        if (rc == Z_STREAM_ERROR)
            return ff_error_set(err, FF_EIO, w->name, 0, 0, "writing the PNG: zlib failed");
        w->nout = CHUNK_DATA - z->avail_out;
        if (w->nout == CHUNK_DATA && (st = flush_data(w, err)) != FF_OK)
            return st;
    } while (z->avail_in > 0 || (flush == Z_FINISH && rc != Z_STREAM_END) || z->avail_out == 0);
    return FF_OK;
}

ff_status ff_apng_begin(ff_apng_writer *w, FILE *f, uint32_t width, uint32_t height,
                        uint32_t frames, uint16_t delay_num, uint16_t delay_den,
                        const char *name, ff_error *err)
{
    static const uint8_t signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    uint8_t ihdr[13], actl[8], srgb = 0;
    ff_status st;

    memset(w, 0, sizeof *w);
    w->f = f;
    w->name = name;
    if (width < 1 || height < 1 || width > 0x7fffffffu || height > 0x7fffffffu || frames < 1 ||
        delay_den == 0 || (uint64_t)width * 3 + 1 > 0x7fffffffu)
        return ff_error_set(err, FF_EUSAGE, name, 0, 0,
                            "a %ux%u animation of %u frames cannot be an APNG", (unsigned)width,
                            (unsigned)height, (unsigned)frames);
    w->width = width;
    w->height = height;
    w->frames = frames;
    w->delay_num = delay_num;
    w->delay_den = delay_den;
    w->z = calloc(1, sizeof(z_stream));
    w->prev = calloc((size_t)width * 3, 1);
    w->line = malloc((size_t)width * 3 + 1);
    w->out = malloc(CHUNK_DATA + 4);
    if (!w->z || !w->prev || !w->line || !w->out) {
        ff_apng_discard(w);
        return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for the APNG writer");
    }
    errno = 0;
    if (fwrite(signature, 1, 8, f) != 8) {
        ff_apng_discard(w);
        return io_error(w, err);
    }
    put32(ihdr, width);
    put32(ihdr + 4, height);
    ihdr[8] = 8;   /* bit depth */
    ihdr[9] = 2;   /* RGB */
    ihdr[10] = ihdr[11] = ihdr[12] = 0;  /* deflate, adaptive filters, no interlace */
    put32(actl, frames);
    put32(actl + 4, 0);  /* loop for ever */
    if ((st = chunk(w, "IHDR", ihdr, 13, err)) != FF_OK ||
        (st = chunk(w, "sRGB", &srgb, 1, err)) != FF_OK ||  /* perceptual */
        (st = chunk(w, "acTL", actl, 8, err)) != FF_OK) {
        ff_apng_discard(w);
        return st;
    }
    return FF_OK;
}

ff_status ff_apng_frame(ff_apng_writer *w, uint32_t x, uint32_t y, uint32_t fw, uint32_t fh,
                        ff_error *err)
{
    uint8_t fctl[26];
    z_stream *z = w->z;

    if (w->frame >= w->frames || (w->frame > 0 && w->rows != w->fh) || fw < 1 || fh < 1 ||
        fw > w->width || fh > w->height || x > w->width - fw || y > w->height - fh ||
        (w->frame == 0 && (fw != w->width || fh != w->height)))
        return ff_error_set(err, FF_EIO, w->name, 0, 0,
                            "writing the PNG: frame %u of %u is %ux%u at %u,%u",
                            (unsigned)w->frame + 1, (unsigned)w->frames, (unsigned)fw,
                            (unsigned)fh, (unsigned)x, (unsigned)y);
    put32(fctl, w->seq++);
    put32(fctl + 4, fw);
    put32(fctl + 8, fh);
    put32(fctl + 12, x);
    put32(fctl + 16, y);
    put16(fctl + 20, w->delay_num);
    put16(fctl + 22, w->delay_den);
    fctl[24] = 0;  /* dispose_op NONE: the next frame draws over this one */
    fctl[25] = 0;  /* blend_op SOURCE: the rectangle replaces what was there */
    w->frame++;
    w->fw = fw;
    w->fh = fh;
    w->rows = 0;
    memset(w->prev, 0, (size_t)fw * 3);
    if (w->frame > 1)
        deflateEnd(z);
    memset(z, 0, sizeof *z);
    if (deflateInit2(z, 6, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return ff_error_set(err, FF_ENOMEM, w->name, 0, 0, "out of memory for zlib");
    return chunk(w, "fcTL", fctl, 26, err);
}

/* The Paeth predictor of the PNG specification. */
static uint8_t paeth(uint8_t a, uint8_t b, uint8_t c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

ff_status ff_apng_row(ff_apng_writer *w, const uint8_t *rgb, ff_error *err)
{
    size_t n = (size_t)w->fw * 3, i;
    ff_status st;

    if (w->frame == 0 || w->rows >= w->fh)
        return ff_error_set(err, FF_EIO, w->name, 0, 0, "writing the PNG: a row past the frame");
    w->line[0] = 4;  /* Paeth */
    for (i = 0; i < n; i++) {
        uint8_t a = i >= 3 ? rgb[i - 3] : 0, b = w->prev[i], c = i >= 3 ? w->prev[i - 3] : 0;
        w->line[i + 1] = (uint8_t)(rgb[i] - paeth(a, b, c));
    }
    memcpy(w->prev, rgb, n);
    if ((st = deflate_some(w, w->line, n + 1, Z_NO_FLUSH, err)) != FF_OK)
        return st;
    if (++w->rows == w->fh) {
        if ((st = deflate_some(w, NULL, 0, Z_FINISH, err)) != FF_OK)
            return st;
        return flush_data(w, err);
    }
    return FF_OK;
}

ff_status ff_apng_end(ff_apng_writer *w, ff_error *err)
{
    ff_status st;

    if (w->frame != w->frames || w->rows != w->fh)
        return ff_error_set(err, FF_EIO, w->name, 0, 0, "writing the PNG: %u of %u frames",
                            (unsigned)w->frame, (unsigned)w->frames);
    st = chunk(w, "IEND", NULL, 0, err);
    if (st == FF_OK && fflush(w->f) != 0)
        st = io_error(w, err);
    return st;
}

void ff_apng_discard(ff_apng_writer *w)
{
    if (w->z && w->frame > 0)
        deflateEnd(w->z);
    free(w->z);
    free(w->prev);
    free(w->line);
    free(w->out);
    w->z = NULL;
    w->prev = w->line = w->out = NULL;
}
