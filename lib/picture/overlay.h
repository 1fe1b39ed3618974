/* overlay.h - what is drawn over a picture's cells: paths, crowd traces and
 * points, read from their text formats into marks (man 1 ffpng), and the
 * density of traces for the density layer.
 */
#ifndef FF_OVERLAY_H
#define FF_OVERLAY_H

#include <stdint.h>
#include <stdio.h>

#include "grid.h"
#include "raster.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The overlays of one picture, in drawing order (later on top; points
 * above the goals, the rest below).  Built for one grid and scale, because
 * marks are kept in pixels: a trail keeps only points that moved at least
 * half a pixel, so a long crowd replay costs memory in proportion to what
 * can be seen.  Owns its shapes and counts. */
typedef struct {
    const ff_grid *grid;    /* not owned; must outlive the overlay */
    int scale;              /* pixels per cell */
    ff_shapes shapes;
    int npath, ntrace, npoints;  /* overlays read so far, for colours and the key */
    unsigned states_seen;   /* bit 1 << ff_trace_state of each state drawn */
    uint64_t every;         /* traces keep the first tick of every `every` (>= 1) */
    uint32_t *density_count;  /* w*h agent lines per cell (saturating), or NULL */
    uint64_t density_ticks;   /* ticks the counts were taken over */
} ff_overlay;

void ff_overlay_init(ff_overlay *o, const ff_grid *g, int scale);
void ff_overlay_free(ff_overlay *o);

/* Read a path, `x y` in world units a line (records.h format): drawn as a
 * line through the points in a black casing, each point dotted.  name is
 * used in messages ("-" for stdin).  Errors are FF_EINPUT at the line of
 * the bad record. */
ff_status ff_overlay_read_path(ff_overlay *o, FILE *f, const char *name, ff_error *err);

/* Default agent radius in a trace without a radius column, in cells. */
#define FF_TRACE_RADIUS 0.4

/* Read a crowd trace (trace.h), keeping the ticks o->every says.  Each
 * agent's positions, in the order read, make a thin trail, each piece in
 * the colour of the agent's state at its end; its last position is a disc
 * of its last radius in the colour of its last state, ringed in black.
 * Without a radius column agents have radius FF_TRACE_RADIUS cells.  With
 * ff_overlay_want_density the trace is counted instead of drawn. */
ff_status ff_overlay_read_trace(ff_overlay *o, FILE *f, const char *name, ff_error *err);

/* Read points, `x y` in world units a line: each a ringed marker, drawn
 * above the goals. */
ff_status ff_overlay_read_points(ff_overlay *o, FILE *f, const char *name, ff_error *err);

/* Count the agents of the traces read from now on per cell, for the
 * density layer, instead of drawing them: a trace line counts in the cell
 * its x y lies in (lines off the map do not count), over the ticks the
 * traces keep.  FF_ENOMEM. */
ff_status ff_overlay_want_density(ff_overlay *o, ff_error *err);

/* Agents in cell (y * w + x) averaged over the ticks counted; 0 when none
 * were or the density was not asked for. */
double ff_overlay_density(const ff_overlay *o, size_t cell);

/* Sizes of marks at `scale` pixels a cell, shared by the pictures and the
 * animation: an agent's ring, a trail's half thickness. */
double ff_overlay_ring(int scale);
double ff_overlay_trail(int scale);

/* A trace line's agent in picture pixels: its center and radius
 * (FF_TRACE_RADIUS cells without a radius column).  FF_EINPUT at
 * name:line for a position or radius absurdly large. */
ff_status ff_overlay_agent(const ff_overlay *o, const ff_trace_record *r, const char *name,
                           long line, double *x, double *y, double *radius, ff_error *err);

/* Count an agent at world x y for the density (o must want it). */
void ff_overlay_count(ff_overlay *o, double x, double y);

/* World position to picture pixels; FF_EINPUT (at name:line) for positions
 * absurdly far outside the map (2^40 pixels). */
ff_status ff_overlay_to_pixels(const ff_grid *g, int scale, double wx, double wy, double *px,
                               double *py, const char *name, long line, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
