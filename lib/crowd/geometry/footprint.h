/* footprint.h - a disk moving from a cell's center to another's, as the
 * cell-to-cell moves see it: the centers of cells, whether the disk lies
 * within a cell, and whether the sweep between two centers keeps clear of
 * the walls (the slide's measure, walls.h).  Below both the grid moves
 * and the grant (gridmove.c, pibt.c, lacam.c), which ask it.
 */
#ifndef FF_FOOTPRINT_H
#define FF_FOOTPRINT_H

#include <math.h>
#include <stdint.h>

#include "grid.h"
#include "walls.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What cell-to-cell moves read of a class, worked out once. */
typedef struct {
    double radius;   /* world units */
    int32_t half;    /* its footprint's half-width in cells (reserve.h) */
    int in_cell;     /* 1: its disk lies within a cell (ff_footprint_disk_in_cell) */
} ff_footprint;

/* The center of column x and of row y of grid g, in world units. */
static inline double column_center(const ff_grid *g, long long x)
{
    return g->origin_x + ((double)x + 0.5) * g->cell_size;
}

static inline double row_center(const ff_grid *g, long long y)
{
    return g->origin_y + ((double)y + 0.5) * g->cell_size;
}

/* The center of cell of grid g, in world units. */
static inline double cell_center_x(const ff_grid *g, uint32_t cell)
{
    return column_center(g, cell % (uint32_t)g->w);
}

static inline double cell_center_y(const ff_grid *g, uint32_t cell)
{
    return row_center(g, cell / (uint32_t)g->w);
}

/* 1 when a disk of radius r at a cell's center lies within the cell with
 * a margin far above rounding at g's coordinates: 0 < r <= 0.45 cells,
 * and g's world coordinates under 1e9 cells.  Such a disk is at least
 * half a cell from any wall while its center is in an open cell, and two
 * at different cells' centers do not overlap. */
static inline int ff_footprint_disk_in_cell(const ff_grid *g, double r)
{
    return r > 0 && r <= 0.45 * g->cell_size &&
           fabs(g->origin_x) + fabs(g->origin_y) + ((double)g->w + (double)g->h) * g->cell_size < 1e9 * g->cell_size;
}

/* ff_footprint_sweep_clear by the slide itself. */
int ff_footprint_sweep_measured(const ff_walls *w, uint32_t from, uint32_t to, double r);

/* ff_footprint_sweep_clear for the step (dx, dy), each -1, 0 or 1, from
 * cell (x, y), both ends in the map. */
static inline int ff_footprint_step_clear(const ff_walls *w, int32_t x, int32_t y, int32_t dx, int32_t dy, double r)
{
    const ff_grid *g = w->grid;
    size_t gw = (size_t)g->w, from = (size_t)y * gw + (size_t)x, to = (size_t)(y + dy) * gw + (size_t)(x + dx);

    /* A disk within its cell moving between the centers of two open
     * neighbours stays at least half a cell from any wall: the slide would
     * find it clear.  A diagonal step also passes the two side cells'
     * shared corner: clear too when both are open. */
    if (ff_footprint_disk_in_cell(g, r) && ff_grid_open(g, from) && ff_grid_open(g, to) &&
        (dx == 0 || dy == 0 || (ff_grid_open(g, from + (size_t)(int64_t)dx) && ff_grid_open(g, to - (size_t)(int64_t)dx))))
        return 1;
    return ff_footprint_sweep_measured(w, (uint32_t)from, (uint32_t)to, r);
}

/* 1 when a disk of radius r moving from the center of cell from to that
 * of cell to keeps clear of the walls w, as the slide measures it (no
 * substep cut; see walls.h), and ends clear, or at least less deep when
 * it started too near a wall (a map change, a wide agent spawned by
 * one). */
static inline int ff_footprint_sweep_clear(const ff_walls *w, uint32_t from, uint32_t to, double r)
{
    uint32_t gw = (uint32_t)w->grid->w, fx = from % gw, fy = from / gw, tx = to % gw, ty = to / gw;

    if (fx + 1 >= tx && tx + 1 >= fx && fy + 1 >= ty && ty + 1 >= fy)
        return ff_footprint_step_clear(w, (int32_t)fx, (int32_t)fy, (int32_t)tx - (int32_t)fx, (int32_t)ty - (int32_t)fy, r);
    return ff_footprint_sweep_measured(w, from, to, r);
}

#ifdef __cplusplus
}
#endif

#endif
