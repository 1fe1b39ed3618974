/* apng.h - writing an animated PNG (APNG 1.0) frame by frame, one row at a
 * time, with zlib: chunks framed byte by byte (man 1 ffpng, "Animation").
 *
 * The file is the PNG signature, IHDR (8-bit RGB), sRGB, acTL (the frame
 * count, looping for ever), then per frame an fcTL and its image data:
 * the first frame is the whole picture in IDAT chunks, so that a viewer
 * without APNG shows it as a still; later frames are rectangles of it in
 * fdAT chunks, drawn over the previous frame (dispose none, blend source).
 * Every row is Paeth-filtered and the zlib stream made at level 6 with a
 * 32 KiB window: the same frames give the same bytes.  A frame's rows go
 * out as they come (chunks of up to 64 KiB), so nothing holds a frame.
 */
#ifndef FF_APNG_H
#define FF_APNG_H

#include <stdint.h>
#include <stdio.h>

#include "fferror.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    FILE *f;
    const char *name;         /* for messages ("-" = stdout) */
    uint32_t width, height;   /* the picture */
    uint32_t frames, frame;   /* frames promised; frames begun */
    uint32_t seq;             /* next fcTL / fdAT sequence number */
    uint16_t delay_num, delay_den;  /* a frame's time, seconds */
    uint32_t fw, fh, rows;    /* the current frame's size, rows written */
    void *z;                  /* z_stream, owned */
    uint8_t *prev, *line;     /* the last row and the filtered row, owned */
    uint8_t *out;             /* compressed bytes waiting for a chunk, owned */
    size_t nout;
} ff_apng_writer;

/* Start a width x height animation of `frames` frames (>= 1), each shown
 * delay_num / delay_den seconds (den > 0), on f: writes the header chunks.
 * FF_EUSAGE for sizes PNG cannot hold, FF_ENOMEM, FF_EIO. */
ff_status ff_apng_begin(ff_apng_writer *w, FILE *f, uint32_t width, uint32_t height,
                        uint32_t frames, uint16_t delay_num, uint16_t delay_den,
                        const char *name, ff_error *err);

/* Begin the next frame: the rectangle of fw x fh pixels at x, y (the first
 * frame must be the whole picture). */
ff_status ff_apng_frame(ff_apng_writer *w, uint32_t x, uint32_t y, uint32_t fw, uint32_t fh,
                        ff_error *err);

/* The frame's next row, fw * 3 bytes of R G B.  After its last row the
 * frame's data is finished. */
ff_status ff_apng_row(ff_apng_writer *w, const uint8_t *rgb, ff_error *err);

/* After the last frame: IEND.  Every frame must be complete.  The FILE is
 * neither closed nor checked (ff_outfile_commit does that). */
ff_status ff_apng_end(ff_apng_writer *w, ff_error *err);

/* Release a writer (after a failure, or after ff_apng_end). */
void ff_apng_discard(ff_apng_writer *w);

#ifdef __cplusplus
}
#endif

#endif
