/* walls.h - agents as disks against the blocked cells of a grid: the
 * distance to the nearest wall, the push of avoid-walls, and a move with
 * wall sliding (man 1 ffsim, "WALLS").
 *
 * A wall is a blocked cell (cost +inf) or any cell outside the map, taken
 * as its closed square [x, x+1] x [y, y+1] in cell units.  A disk of radius
 * r at p is clear when p is nearer than r to no wall; a point inside a wall
 * is at distance 0.
 *
 * The near-wall map that answers most of these in one byte is made and
 * repaired in nearwall.c, the geometry is walls.c.
 */
#ifndef FF_WALLS_H
#define FF_WALLS_H

#include <math.h>
#include <stdint.h>

#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The near-wall map's cap: no entry exceeds it, so no change reaches
 * further than it (ff_walls_repair). */
#define FF_WALLS_NEAR_MAX 255

typedef struct ff_walls_repair_state ff_walls_repair_state;

typedef struct {
    const ff_grid *grid;  /* borrowed: must outlive the ff_walls */
    uint8_t *near;        /* w*h: Chebyshev distance in cells to the nearest
                             wall (outside cells count), capped at
                             FF_WALLS_NEAR_MAX; 0 on a blocked cell; owned */
    double inv_cell;      /* 1 / cell_size */
    ff_walls_repair_state *repair; /* scratch of ff_walls_repair: NULL
                             until the first; owned */
} ff_walls;

/* floor(reach / cell size) for a reach >= 0, in cells (a huge or NaN reach
 * gives a number no near-wall entry exceeds). */
static inline double ff_walls_cells(const ff_walls *w, double reach)
{
    double v = reach * w->inv_cell;
    return v < 4.0e15 ? (double)(long long)v : INFINITY;
}

/* 1 when the near-wall map alone shows that no wall lies within reach of
 * (x, y) (then ff_walls_push gives 0 0 and ff_walls_nearest gives reach);
 * 0 when it cannot tell. */
static inline int ff_walls_far(const ff_walls *w, double x, double y, double reach)
{
    const ff_grid *g = w->grid;
    double fx = (x - g->origin_x) * w->inv_cell, fy = (y - g->origin_y) * w->inv_cell;
    if (!(fx >= 0 && fy >= 0 && fx < (double)g->w && fy < (double)g->h))
        return 0;
    return w->near[(size_t)fy * (size_t)g->w + (size_t)fx] > ff_walls_cells(w, reach) + 1;
}

/* Build the near-wall map of g (w*h bytes).  FF_ENOMEM on failure. */
ff_status ff_walls_init(ff_walls *w, const ff_grid *g, ff_error *err);
void ff_walls_free(ff_walls *w);

/* Bring the near-wall map up to date after cells of w->grid opened or
 * closed: cells lists the n cells that may have (in any order, repeats
 * and cells that did not change allowed).  The map becomes what
 * ff_walls_init gives for the grid as it now is, bit for bit, and only
 * the entries a change can alter are recomputed: those an opened cell
 * leaves without a wall as near (given up, then found again from their
 * neighbours kept) and those a closed cell brings nearer to a wall; all
 * lie no farther (Chebyshev) from a changed cell than their entry
 * before, so never farther than FF_WALLS_NEAR_MAX.  Work is 8 times those
 * cells and their neighbours' checks (but the map is recomputed whole
 * when they pass a quarter of it, or when memory for their lists runs
 * out: it cannot fail).  Keeps w*h bits and those lists until
 * ff_walls_free. */
void ff_walls_repair(ff_walls *w, const uint32_t *cells, size_t n);

/* 1 when world position (x, y) lies in an open cell of the map. */
int ff_walls_open_at(const ff_walls *w, double x, double y);

/* Distance (world units) from (x, y) to the nearest wall, when that is
 * below reach; otherwise reach itself.  When a wall is nearer than reach,
 * *cx, *cy receive the wall's point nearest to (x, y) (either may be NULL). */
double ff_walls_nearest(const ff_walls *w, double x, double y, double reach,
                        double *cx, double *cy);

/* The avoid-walls push of a disk of radius r at (x, y) with look-ahead
 * look (world units, > 0): the sum over walls whose gap to the disk's edge
 * (distance - r) is below look, of the unit vector away from the wall's
 * nearest point times 1 - gap / look (gap clamped at 0); a sum longer than
 * 1 is scaled to length 1. */
void ff_walls_push(const ff_walls *w, double x, double y, double r, double look,
                   double *px, double *py);

/* The most substeps one move takes: a longer move is cut to this many
 * half radii (or half cells, when the cell is smaller). */
#define FF_SLIDE_SUBSTEPS_MAX 256

/* Move a disk of radius r (> 0) from (*x, *y) by (dx, dy) with wall
 * sliding: a move longer than the map's width plus height (plus 2r), or
 * than FF_SLIDE_SUBSTEPS_MAX substeps, is first cut to that length; the
 * move is cut into substeps no longer than half of min(r, cell size); a
 * substep that ends nearer than r to a wall is
 * projected out along the wall's normal (what is left is the part along
 * the wall), up to four times for corners, and dropped if that fails.
 * A disk that starts clear stays clear.  A disk that starts too near a wall
 * (a map change) accepts substeps that leave it less deep.  Returns 1 when
 * any part of the move was cut. */
int ff_walls_slide(const ff_walls *w, double r, double *x, double *y, double dx, double dy);

/* The same; *far is set to 1 when the disk ends no nearer than r to any
 * wall, as the slide found it: by the near-wall map alone (no wall within
 * r + the move's length of the start: then it is so everywhere on the
 * way), or by the distance it measured where the last substep it took
 * ended (ff_walls_nearest(w, *x, *y, r) >= r); else 0. */
int ff_walls_slide_far(const ff_walls *w, double r, double *x, double *y, double dx, double dy,
                       int *far);

/* The same, given the cell (gx, gy) of the start: floor((*x - origin_x) *
 * inv_cell) and the same for y, computed once by a caller that needs it
 * too. */
int ff_walls_slide_from(const ff_walls *w, long gx, long gy, double r, double *x, double *y,
                        double dx, double dy, int *far);

#ifdef __cplusplus
}
#endif

#endif
