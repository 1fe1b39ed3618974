/* draw.h - pictures of maps, fields, paths and crowds, made one pixel row
 * at a time (man 1 ffpng).
 *
 * A picture is the cells of one layer of an ff field, scale x scale pixels
 * a cell, with overlays (paths, crowd traces, points) drawn on top and an
 * optional legend strip below.  Rows are produced in order, top to bottom,
 * into a caller's buffer; nothing holds the whole picture.  Colours are
 * 8-bit sRGB and fixed (the man page lists them), so the same field and
 * overlays always give the same rows.
 */
#ifndef FF_DRAW_H
#define FF_DRAW_H

#include <stdint.h>
#include <stdio.h>

#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    FF_LAYER_MAP = 0,   /* walls dark, open cells light, terrain classes tinted */
    FF_LAYER_COST,      /* open cells in greys by terrain cost, walls dark */
    FF_LAYER_DISTANCE,  /* a perceptually uniform ramp from nearest to farthest */
    FF_LAYER_DIRECTION, /* arrows from scale 8, a colour per direction below */
    FF_LAYER_DENSITY    /* agents per cell over the ticks of the traces drawn */
} ff_layer;

/* Largest picture accepted, in bytes of RGB (width * height * 3). */
#define FF_DRAW_MAX_BYTES ((uint64_t)1 << 31)

/* The scale from which direction cells are drawn as arrows. */
#define FF_DRAW_ARROW_SCALE 8

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

/* ---- overlays ---- */

/* One thing drawn over the cells: every overlay mark is a capsule, the
 * pixels whose centers lie within r of the segment a-b (a disc when a = b).
 * Coordinates are picture pixels (x east, y south, 0 0 the north-west
 * corner of the map). */
typedef struct {
    double ax, ay, bx, by;  /* the segment, pixels */
    double r;               /* half the thickness, pixels, > 0 */
    int64_t row0, row1;     /* first and last pixel row it may touch */
    uint8_t rgb[3];
} ff_shape;

/* The overlays of one picture, in drawing order (later on top).  Built
 * for one grid and scale, because marks are kept in pixels: a trail keeps
 * only points that moved at least half a pixel, so a long crowd replay
 * costs memory in proportion to what can be seen.  Owns its shapes. */
typedef struct {
    const ff_grid *grid;    /* not owned; must outlive the overlay */
    int scale;              /* pixels per cell */
    ff_shape *shape;
    size_t nshape, cap;
    int npath, ntrace, npoints;  /* overlays read so far, for colours */
    uint64_t every;         /* traces keep the first tick of every `every` (>= 1) */
    uint32_t *density_count;  /* w*h agent lines per cell (saturating), or NULL */
    uint64_t density_ticks;   /* ticks the counts were taken over */
} ff_overlay;

void ff_overlay_init(ff_overlay *o, const ff_grid *g, int scale);
void ff_overlay_free(ff_overlay *o);

/* Read a path, `x y` in world units a line (records.h format): drawn as a
 * line through the points, each point dotted.  name is used in messages
 * ("-" for stdin).  Errors are FF_EINPUT at the line of the bad record. */
ff_status ff_overlay_read_path(ff_overlay *o, FILE *f, const char *name, ff_error *err);

/* Default agent radius in a trace without a radius column, in cells. */
#define FF_TRACE_RADIUS 0.4

/* Read a crowd trace, ffsim's: lines `tick id x y ...`, '#' comments,
 * blank lines skipped.  id is an integer naming the agent; x y its
 * position in world units at that tick; words after y are ignored except
 * the radius column (world units, > 0), which a comment naming the
 * columns points out: `# ffsim trace: tick id x y vx vy heading radius
 * state` (the words from `tick id x y` on, one a column).  Without one,
 * agents have radius FF_TRACE_RADIUS cells.  Each agent's positions, in
 * the order read, make a thin trail in the agent's colour (by id); its
 * last position is a ringed disc of its last radius. */
ff_status ff_overlay_read_trace(ff_overlay *o, FILE *f, const char *name, ff_error *err);

/* Count the agents of the traces read from now on per cell, for the
 * density layer, instead of drawing them: a trace line counts in the cell
 * its x y lies in (lines off the map do not count), over the ticks the
 * traces keep.  FF_ENOMEM. */
ff_status ff_overlay_want_density(ff_overlay *o, ff_error *err);

/* Agents in cell (y * w + x) averaged over the ticks counted; 0 when none
 * were or the density was not asked for. */
double ff_overlay_density(const ff_overlay *o, size_t cell);

/* Read points, `x y` in world units a line: each a ringed marker. */
ff_status ff_overlay_read_points(ff_overlay *o, FILE *f, const char *name, ff_error *err);

/* ---- the picture ---- */

typedef struct {
    ff_layer layer;
    int scale;    /* pixels per cell, >= 1 */
    int legend;   /* 1: add the legend strip below the map */
    const ff_overlay *density;  /* FF_LAYER_DENSITY's counts; not owned */
} ff_draw_options;

/* The picture's size for f and opt, checked: FF_EUSAGE when it would be
 * over FF_DRAW_MAX_BYTES (or the legend was asked of the map layer).
 * Allocates nothing. */
ff_status ff_draw_size(const ff_field *f, const ff_draw_options *opt, uint32_t *width,
                       uint32_t *height, ff_error *err);

/* Legend labels and their layout, filled by ff_draw_begin. */
typedef struct {
    int glyph;              /* pixels per glyph dot, >= 1 */
    uint32_t top;           /* first row of the strip */
    uint32_t bar_x0, bar_x1;  /* the ramp bar's columns, [x0, x1) */
    char low[24], high[24];   /* the range's ends as drawn */
} ff_legend;

/* The state of a picture being drawn.  Fields below width and height
 * are private. */
typedef struct {
    uint32_t width, height;   /* picture size, pixels */
    uint32_t map_width, map_height;  /* the map part, pixels (w*scale, h*scale) */
    uint32_t next_row;        /* the row ff_draw_row fills next */
    ff_legend legend;

    const ff_field *field;
    const ff_overlay *overlay;
    ff_draw_options opt;
    double low, high;         /* the ramp's range (distance or cost) */
    int has_range;            /* 0 when no cell has a finite value */
    int arrows;               /* direction drawn as arrows */
    uint8_t *base;            /* width*3: the current cell row, plain */
    uint8_t *lut;             /* the ramp's colours, as cells are drawn */
    int32_t *arrow_span;      /* [8][scale][2 shapes][2]: arrow spans */
    int32_t *goal_span;       /* [scale][2]: the goal mark's spans */
    size_t goal_at;           /* next goal (grid.goals) not yet passed */
    uint32_t *order;          /* shapes by first row */
    uint32_t *active;         /* shapes touching this row, drawing order */
    size_t nactive, next_shape;
} ff_drawing;

/* Prepare to draw f with opt and the overlays ov (may be NULL); checks the
 * size as ff_draw_size does.  f and ov must outlive the drawing.
 * Release with ff_draw_end. */
ff_status ff_draw_begin(ff_drawing *d, const ff_field *f, const ff_draw_options *opt,
                        const ff_overlay *ov, ff_error *err);

/* Fill rgb (width * 3 bytes) with the next row, top to bottom; returns the
 * row's number.  Call it height times. */
uint32_t ff_draw_row(ff_drawing *d, uint8_t *rgb);

void ff_draw_end(ff_drawing *d);

#ifdef __cplusplus
}
#endif

#endif
