/* pngout.c - row-by-row RGB PNG output; see pngout.h. */
#include "pngout.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <string.h>
#include <zlib.h>

/* libpng reports errors by calling this and expecting it not to return:
 * keep the message for the error record and jump back to the caller. */
static void on_error(png_structp png, png_const_charp msg)
{
    ff_png_writer *w = png_get_error_ptr(png);

    snprintf(w->message, sizeof w->message, "%s", msg ? msg : "libpng error");
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

/* The file's own writes, so that a failure says why as every program's
 * write errors do ("write error: No space left on device"), not libpng's
 * "Write Error". */
static void on_write(png_structp png, png_bytep data, size_t n)
{
    if (fwrite(data, 1, n, png_get_io_ptr(png)) != n) {
        ff_png_writer *w = png_get_error_ptr(png);
        snprintf(w->message, sizeof w->message, "write error: %s", strerror(errno));
        w->write_failed = 1;
        png_longjmp(png, 1);
    }
}

static void on_flush(png_structp png)
{
    (void)png;  /* the caller's commit flushes and checks */
}

static ff_status failed(ff_png_writer *w, ff_error *err)
{
    if (w->write_failed)
        return ff_error_set(err, FF_EIO, w->name, 0, 0, "%s", w->message);
    return ff_error_set(err, FF_EIO, w->name, 0, 0, "writing the PNG: %s", w->message);
}

ff_status ff_png_begin(ff_png_writer *w, FILE *f, uint32_t width, uint32_t height,
                       const char *name, ff_error *err)
{
    png_structp png;
    png_infop info;

    memset(w, 0, sizeof *w);
    w->name = name;
    if (width < 1 || height < 1 || width > FF_PNG_MAX_SIDE || height > FF_PNG_MAX_SIDE)
        return ff_error_set(err, FF_EUSAGE, name, 0, 0,
                            "a %ux%u picture cannot be a PNG (sides 1 to %u)",
                            (unsigned)width, (unsigned)height, FF_PNG_MAX_SIDE);
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, w, on_error, on_warning);
    if (!png)
        return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for libpng");
    info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for libpng");
    }
    w->png = png;
    w->info = info;
    w->width = width;
    w->height = height;
    if (setjmp(png_jmpbuf(png))) {
        ff_png_discard(w);
        return failed(w, err);
    }
    png_set_write_fn(png, f, on_write, on_flush);
    /* libpng refuses to write sides over 10^6 by default; the caller has
     * already bounded the picture's bytes. */
    png_set_user_limits(png, FF_PNG_MAX_SIDE, FF_PNG_MAX_SIDE);
    /* Every setting that shapes the bytes, explicitly: the same rows give
     * the same file whatever libpng's defaults become.  The Paeth filter
     * alone compresses ramps and flat areas well and costs one pass, where
     * adaptive filtering would try all five on every row. */
    png_set_compression_level(png, 6);
    png_set_compression_mem_level(png, 8);
    png_set_compression_strategy(png, Z_DEFAULT_STRATEGY);
    png_set_compression_window_bits(png, 15);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_PAETH);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_write_info(png, info);
    return FF_OK;
}

ff_status ff_png_row(ff_png_writer *w, const uint8_t *rgb, ff_error *err)
{
    png_structp png = w->png;

    if (!png || w->rows_written >= w->height)
        return ff_error_set(err, FF_EIO, w->name, 0, 0, "writing the PNG: row %u of %u",
                            (unsigned)w->rows_written + 1, (unsigned)w->height);
    if (setjmp(png_jmpbuf(png)))
        return failed(w, err);
    png_write_row(png, rgb);
    w->rows_written++;
    return FF_OK;
}

ff_status ff_png_end(ff_png_writer *w, ff_error *err)
{
    png_structp png = w->png;

    if (!png || w->rows_written != w->height) {
        ff_png_discard(w);
        return ff_error_set(err, FF_EIO, w->name, 0, 0, "writing the PNG: %u of %u rows",
                            (unsigned)w->rows_written, (unsigned)w->height);
    }
    if (setjmp(png_jmpbuf(png))) {
        ff_png_discard(w);
        return failed(w, err);
    }
    png_write_end(png, NULL);
    ff_png_discard(w);
    return FF_OK;
}

void ff_png_discard(ff_png_writer *w)
{
    png_structp png = w->png;
    png_infop info = w->info;

    if (png)
        png_destroy_write_struct(&png, &info);
    w->png = NULL;
    w->info = NULL;
}
