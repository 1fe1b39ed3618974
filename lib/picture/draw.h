/* draw.h - pictures of maps, fields, paths and crowds, made one pixel row
 * at a time (man 1 ffpng).
 *
 * A picture is the cells of one layer of an ff field, scale x scale pixels
 * a cell, with overlays (paths, crowd traces, points) drawn on top, the
 * goals above them and points above all; optional --grid coordinate strips
 * below and right of the map; and the key below everything.  Rows are
 * produced in order, top to bottom, into a caller's buffer; nothing holds
 * the whole picture.  Colours are 8-bit sRGB and fixed (palette.h, the man
 * page lists them), so the same field and overlays always give the same
 * rows.
 */
#ifndef FF_DRAW_H
#define FF_DRAW_H

#include <stdint.h>
#include <stdio.h>

#include "legend.h"
#include "overlay.h"
#include "raster.h"
#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    FF_LAYER_MAP = 0,   /* walls dark, open cells light, terrain classes tinted */
    FF_LAYER_COST,      /* open cells in greys by terrain cost, walls dark */
    FF_LAYER_DISTANCE,  /* a perceptually uniform ramp from nearest to farthest */
    FF_LAYER_DIRECTION, /* arrows from scale 8, a colour per direction below;
                           an any-angle field's vectors (arrows along them,
                           below the colour of the nearest direction) */
    FF_LAYER_DENSITY    /* agents per cell over the ticks of the traces drawn */
} ff_layer;

/* Largest picture accepted, in bytes of RGB (width * height * 3). */
#define FF_DRAW_MAX_BYTES ((uint64_t)1 << 31)

/* The scale from which direction cells are drawn as arrows. */
#define FF_DRAW_ARROW_SCALE 8

/* The scale from which a goal is a ring (what lies under it shows). */
#define FF_DRAW_RING_SCALE 6

/* "map", "cost", "distance", "direction", "density". */
const char *ff_layer_name(ff_layer layer);

/* Parse a layer name; -1 if it is none of them. */
int ff_layer_parse(const char *s);

/* The richest layer f has: direction, else distance, else cost. */
ff_layer ff_layer_richest(const ff_field *f);

/* FF_OK when f has the channels layer needs; otherwise FF_EINPUT with a
 * message naming the layers f has (name is the stream's, for messages).
 * The density layer needs no channel but a trace (ff_overlay_want_density). */
ff_status ff_layer_check(const ff_field *f, ff_layer layer, const char *name, ff_error *err);

/* A scale that makes the long side of the map about 1024 pixels, at
 * least 1. */
int ff_draw_default_scale(const ff_grid *g);

typedef struct {
    ff_layer layer;
    int scale;       /* pixels per cell, >= 1 */
    int legend;      /* 1: the key below the map */
    int grid;        /* > 0: cell coordinates every `grid` cells; 0: none */
    int background;  /* 1: leave out the goals and the points (an animation's
                        background, ff_draw_top_row draws them) */
    const ff_overlay *density;  /* FF_LAYER_DENSITY's counts; not owned */
    const char *heading_name;   /* NULL, or the heading whose channels the
                                   field holds (ff_field_as_heading), which
                                   the key's title names; not owned */
} ff_draw_options;

/* The picture's size for f, opt and the overlays ov (may be NULL),
 * checked: FF_EUSAGE when it would be over FF_DRAW_MAX_BYTES.  Allocates
 * nothing. */
ff_status ff_draw_size(const ff_field *f, const ff_draw_options *opt, const ff_overlay *ov,
                       uint32_t *width, uint32_t *height, ff_error *err);

/* The state of a picture being drawn.  Fields below map_height are
 * private. */
typedef struct {
    uint32_t width, height;   /* picture size, pixels */
    uint32_t map_width, map_height;  /* the map part, pixels (w*scale, h*scale) */
    uint32_t next_row;        /* the row ff_draw_row fills next */
    ff_legend legend;         /* the key (rows 0 when there is none) */
    uint32_t grid_rows, grid_cols;  /* the --grid strips, pixels (0: none) */

    const ff_field *field;
    const ff_overlay *overlay;
    ff_draw_options opt;
    double low, high;         /* the ramp's range (distance, cost, density) */
    int has_range;            /* 0 when no cell has a finite value */
    int arrows;               /* direction drawn as arrows */
    const float *vectors;     /* the direction layer of an any-angle field:
                                 its vector channel (f's) */
    uint8_t *base;            /* width*3: the current cell row, plain */
    uint8_t *lut;             /* the ramp's colours, as cells are drawn */
    int32_t *arrow_span;      /* [8][scale][2 shapes][2]: arrow spans; with
                                 vectors [w][scale][2][2], the cell row's */
    int32_t *goal_span;       /* [scale][2 spans][2]: the goal mark's spans */
    ff_shape_rows shapes;     /* the overlay's marks, a row at a time */
} ff_drawing;

/* Prepare to draw f with opt and the overlays ov (may be NULL); checks the
 * size as ff_draw_size does.  f and ov must outlive the drawing.
 * Release with ff_draw_end. */
ff_status ff_draw_begin(ff_drawing *d, const ff_field *f, const ff_draw_options *opt,
                        const ff_overlay *ov, ff_error *err);

/* Fill rgb (width * 3 bytes) with the next row, top to bottom; returns the
 * row's number.  Call it height times. */
uint32_t ff_draw_row(ff_drawing *d, uint8_t *rgb);

/* The goal marks of map row py (< map_height) onto rgb, in any order of
 * rows: what a background leaves out, drawn over an animation's agents. */
void ff_draw_goals_row(const ff_drawing *d, uint8_t *rgb, uint32_t py);

void ff_draw_end(ff_drawing *d);

#ifdef __cplusplus
}
#endif

#endif
