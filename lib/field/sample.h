/* sample.h - directions at any world position: the smoothed direction
 * (bilinear blend of the four surrounding cell-center samples) and the raw
 * cell direction (man 1 ffquery, "SMOOTHING").  ffquery and ffsim share it.
 */
#ifndef FF_SAMPLE_H
#define FF_SAMPLE_H

#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* floor(v) as an integer, clamped to +-9e18 (NaN to -9e18): by
 * truncation, exact there for every double. */
static inline long long ff_floor_clamped(double v)
{
    long long t;
    if (!(v > -9.0e18))
        return (long long)-9.0e18;
    if (v > 9.0e18)
        return (long long)9.0e18;
    t = (long long)v;
    return t - ((double)t > v);
}

/* The cell that world position (px, py) lies in (floor, never truncation).
 * Returns 1 and sets *x, *y when it is inside the map, 0 otherwise (then
 * *x, *y are still the floored cell, clamped to the int range). */
int ff_world_to_cell(const ff_grid *g, double px, double py, long long *x, long long *y);

/* The raw direction of the cell at (px, py) as a unit vector in world axes
 * (+x east, +y south); 0 0 for goals, walls, unreachable cells and
 * positions outside the map.  Returns the direction code. */
int ff_sample_raw(const ff_grid *g, const uint8_t *dir, double px, double py,
                  double *dx, double *dy);

/* The smoothed direction at (px, py): shift to center-sample coordinates
 * (cell units minus 0.5), blend the four surrounding samples with bilinear
 * weights, skipping samples outside the map, blocked, or without a
 * direction (goal or none), each sample's direction normalised first;
 * normalise the sum.  Where the sum's squared length is below 1e-6, answer
 * the raw direction of the cell the position lies in.  Writes a unit
 * vector or 0 0; returns 1 when the answer is not 0 0. */
int ff_sample_smooth(const ff_grid *g, const uint8_t *dir, double px, double py,
                     double *dx, double *dy);

/* The same, given also (fx, fy), the position in cell units:
 * ((px - origin_x) / cell_size, (py - origin_y) / cell_size), computed
 * once by a caller that needs it too. */
int ff_sample_smooth_cells(const ff_grid *g, const uint8_t *dir, double px, double py,
                           double fx, double fy, double *dx, double *dy);

/* The same two answers from a vector channel, vec[2i], vec[2i+1] the unit
 * vector (x east, y south) of cell i, 0 0 for none: an any-angle field's
 * (anyangle.h).  The raw one is the vector of the cell (px, py) lies in;
 * the smoothed one the blend above, a sample of vector 0 0 (goal, wall,
 * unreachable) skipped as a code of none is, with the same fallback.
 * Return 1 when the answer is not 0 0. */
int ff_sample_raw_vector(const ff_grid *g, const float *vec, double px, double py, double *dx,
                         double *dy);
int ff_sample_smooth_vector(const ff_grid *g, const float *vec, double px, double py,
                            double *dx, double *dy);

/* The cells whose directions ff_sample_smooth() may read at (px, py):
 * the samples of a weight other than 0 in the map, and the cell the
 * position lies in, if any; into cells, their number (at most 5; one may
 * repeat).  For a reader of a field that grows as asked. */
int ff_sample_smooth_reads(const ff_grid *g, double px, double py, uint32_t cells[5]);

#ifdef __cplusplus
}
#endif

#endif
