/* raster.h - marks as pixel spans: capsules (discs and thick segments)
 * and triangles cut by a pixel row, and lists of capsules drawn a row at a
 * time (man 1 ffpng).
 *
 * Every mark covers the pixels whose centers lie inside it: no
 * antialiasing, so colours are exact and tests can check them.
 */
#ifndef FF_RASTER_H
#define FF_RASTER_H

#include <stddef.h>
#include <stdint.h>

#include "fferror.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One mark: the pixels whose centers lie within r of the segment a-b (a
 * disc when a = b).  Coordinates are picture pixels (x east, y south, 0 0
 * the north-west corner of the map). */
typedef struct {
    double ax, ay, bx, by;  /* the segment, pixels */
    double r;               /* half the thickness, pixels, > 0 */
    int64_t row0, row1;     /* first and last pixel row it may touch */
    uint8_t rgb[3];
    uint8_t top;            /* 1: drawn above the goals (points) */
} ff_shape;

/* A growable list of shapes, in drawing order (later on top).  Owns its
 * array. */
typedef struct {
    ff_shape *shape;
    size_t n, cap;
} ff_shapes;

/* Append a capsule; FF_ENOMEM (name for the message) when it cannot grow
 * (past UINT32_MAX shapes too). */
ff_status ff_shapes_push(ff_shapes *s, double ax, double ay, double bx, double by, double r,
                         const uint8_t *rgb, const char *name, ff_error *err);

void ff_shapes_free(ff_shapes *s);

/* Drawing a list a row at a time, top to bottom: the shapes sorted by
 * first row, and the ones touching the current row in drawing order. */
typedef struct {
    const ff_shapes *list;  /* not owned */
    uint32_t *order;        /* shapes by first row */
    uint32_t *active;       /* shapes touching this row, drawing order */
    uint32_t *merged;       /* scratch: the next active list */
    uint32_t *incoming;     /* scratch: the shapes a row takes in */
    size_t nactive, next;
} ff_shape_rows;

/* Prepare to draw list (which must not change until ff_shape_rows_end);
 * FF_ENOMEM. */
ff_status ff_shape_rows_begin(ff_shape_rows *r, const ff_shapes *list, ff_error *err);

/* Move to pixel row py (rows only increase) and draw, clipped to columns
 * [0, limit), the shapes active on it whose top flag is `top`. */
void ff_shape_rows_step(ff_shape_rows *r, uint32_t py);
void ff_shape_rows_draw(const ff_shape_rows *r, uint8_t *row, uint32_t py, int64_t limit,
                        int top);

/* Start again from the top (the list unchanged). */
void ff_shape_rows_rewind(ff_shape_rows *r);

void ff_shape_rows_end(ff_shape_rows *r);

/* The x extent, on the line y = yc, of the capsule of radius r around a-b;
 * 0 when the line misses it. */
int ff_capsule_span(double ax, double ay, double bx, double by, double r, double yc,
                    double *lo, double *hi);

/* The x extent of a triangle on the line y = yc (closed); 0 when missed. */
int ff_triangle_span(const double *x, const double *y, double yc, double *lo, double *hi);

/* The pixel columns whose centers lie in [lo, hi], clipped to [0, limit):
 * sets *x0, *x1 (inclusive); 0 when none. */
int ff_span_columns(double lo, double hi, int64_t limit, int64_t *x0, int64_t *x1);

/* Fill pixels x0..x1 (inclusive) of an RGB row with rgb. */
void ff_fill(uint8_t *row, int64_t x0, int64_t x1, const uint8_t *rgb);

#ifdef __cplusplus
}
#endif

#endif
