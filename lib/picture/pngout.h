/* pngout.h - writing an 8-bit RGB PNG one row at a time with libpng, so
 * that a picture never has to be held whole (man 1 ffpng).
 *
 * The bytes depend only on the rows: zlib level, strategy, window and the
 * row filter are set explicitly, and no time or text chunk is written.
 * Errors, including a failed write (full disk), come back as FF_EIO.
 */
#ifndef FF_PNGOUT_H
#define FF_PNGOUT_H

#include <stdint.h>
#include <stdio.h>

#include "fferror.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest width or height a PNG may have (the format's 2^31 - 1). */
#define FF_PNG_MAX_SIDE 0x7fffffffu

typedef struct {
    void *png;             /* png_structp, owned */
    void *info;            /* png_infop, owned */
    const char *name;      /* output name for messages ("-" = stdout) */
    uint32_t width, height;
    uint32_t rows_written;
    char message[200];     /* libpng's last error message, or the write
                              error as "write error: REASON" */
    int write_failed;      /* the message is a write error of the file */
} ff_png_writer;

/* Start a width x height RGB PNG on f (both sides in 1..FF_PNG_MAX_SIDE)
 * and write its header.  name is used in messages.  On failure nothing
 * needs freeing. */
ff_status ff_png_begin(ff_png_writer *w, FILE *f, uint32_t width, uint32_t height,
                       const char *name, ff_error *err);

/* Write the next row: width * 3 bytes, R G B per pixel.  At most height
 * rows.  On failure call ff_png_discard(). */
ff_status ff_png_row(ff_png_writer *w, const uint8_t *rgb, ff_error *err);

/* After the last row: write the end of the image and release the writer.
 * Every row must have been written.  The FILE is flushed by libpng but
 * neither closed nor checked: that is the caller's (ff_outfile_commit). */
ff_status ff_png_end(ff_png_writer *w, ff_error *err);

/* Release a writer after a failure (or to give up); safe on a writer that
 * was ended or never begun. */
void ff_png_discard(ff_png_writer *w);

#ifdef __cplusplus
}
#endif

#endif
