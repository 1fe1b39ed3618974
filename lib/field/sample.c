/* sample.c - smoothed and raw directions at world positions; see sample.h. */
#include "sample.h"

#include <math.h>

#define FF_HALF_SQRT2 0.70710678118654752440

/* Unit vectors of the direction codes (world axes, +y south); codes 8
 * (goal), 9 (none) and the unused codes up to 15 have none, so they weigh
 * nothing in a blend. */
static const double unit_x[16] = { 0, 1, 0, -1, FF_HALF_SQRT2, FF_HALF_SQRT2, -FF_HALF_SQRT2,
                                   -FF_HALF_SQRT2 };
static const double unit_y[16] = { -1, 0, 1, 0, -FF_HALF_SQRT2, FF_HALF_SQRT2, FF_HALF_SQRT2,
                                   -FF_HALF_SQRT2 };

int ff_world_to_cell(const ff_grid *g, double px, double py, long long *x, long long *y)
{
    *x = ff_floor_clamped((px - g->origin_x) / g->cell_size);
    *y = ff_floor_clamped((py - g->origin_y) / g->cell_size);
    return *x >= 0 && *y >= 0 && *x < g->w && *y < g->h;
}

int ff_sample_raw(const ff_grid *g, const uint8_t *dir, double px, double py,
                  double *dx, double *dy)
{
    long long x, y;
    int d;

    *dx = *dy = 0;
    if (!ff_world_to_cell(g, px, py, &x, &y))
        return FF_DIR_NONE;
    d = dir[(size_t)y * (size_t)g->w + (size_t)x];
    if (d < 8) {
        *dx = unit_x[d];
        *dy = unit_y[d];
    }
    return d;
}

int ff_sample_smooth(const ff_grid *g, const uint8_t *dir, double px, double py,
                     double *dx, double *dy)
{
    return ff_sample_smooth_cells(g, dir, px, py, (px - g->origin_x) / g->cell_size,
                                  (py - g->origin_y) / g->cell_size, dx, dy);
}

/* The samples round (fx, fy) in cell units: the upper left one (x0, y0),
 * the weights' fractions (tx, ty); 1 when all four are in the map. */
static inline int sample_square(const ff_grid *g, double fx, double fy, long long *x0, long long *y0,
                                double *tx, double *ty)
{
    double sx = fx - 0.5;
    double sy = fy - 0.5;
    int inside = sx >= 0 && sy >= 0 && sx < (double)(g->w - 1) && sy < (double)(g->h - 1);

    if (inside) {  /* the common case: floor is truncation */
        *x0 = (long long)sx;
        *y0 = (long long)sy;
    } else {
        *x0 = ff_floor_clamped(sx);
        *y0 = ff_floor_clamped(sy);
        inside = *x0 >= 0 && *y0 >= 0 && *x0 + 1 < g->w && *y0 + 1 < g->h;
    }
    *tx = sx - (double)*x0;
    *ty = sy - (double)*y0;
    return inside;
}

int ff_sample_smooth_reads(const ff_grid *g, double px, double py, uint32_t cells[5])
{
    long long x0, y0, x, y;
    double tx, ty;
    int k, n = 0;

    (void)sample_square(g, (px - g->origin_x) / g->cell_size, (py - g->origin_y) / g->cell_size, &x0, &y0,
                        &tx, &ty);
    for (k = 0; k < 4; k++) {
        double wgt = ((k & 1) ? tx : 1 - tx) * ((k >> 1) ? ty : 1 - ty);
        x = x0 + (k & 1);
        y = y0 + (k >> 1);
        if (wgt != 0 && x >= 0 && y >= 0 && x < g->w && y < g->h)
            cells[n++] = (uint32_t)((size_t)y * (size_t)g->w + (size_t)x);
    }
    if (ff_world_to_cell(g, px, py, &x, &y))
        cells[n++] = (uint32_t)((size_t)y * (size_t)g->w + (size_t)x);
    return n;
}

int ff_sample_smooth_cells(const ff_grid *g, const uint8_t *dir, double px, double py,
                           double fx, double fy, double *dx, double *dy)
{
    long long x0, y0;
    double tx, ty, ax = 0, ay = 0, len2;
    int k, inside = sample_square(g, fx, fy, &x0, &y0, &tx, &ty);

    if (inside) {
        /* All four samples in the map: no branch per sample.  The sums
         * are the loop's below, term by term (a skipped sample adds 0). */
        const uint8_t *row = dir + (size_t)y0 * (size_t)g->w + (size_t)x0;
        int d00 = row[0], d10 = row[1], d01 = row[g->w], d11 = row[g->w + 1];
        double w00 = (1 - tx) * (1 - ty), w10 = tx * (1 - ty);
        double w01 = (1 - tx) * ty, w11 = tx * ty;
        inside = (d00 | d10 | d01 | d11) < 16;
        if (inside) {
            ax = 0 + w00 * unit_x[d00] + w10 * unit_x[d10] + w01 * unit_x[d01] + w11 * unit_x[d11];
            ay = 0 + w00 * unit_y[d00] + w10 * unit_y[d10] + w01 * unit_y[d01] + w11 * unit_y[d11];
        }
    }
    for (k = 0; !inside && k < 4; k++) {
        long long x = x0 + (k & 1), y = y0 + (k >> 1);
        double wgt = ((k & 1) ? tx : 1 - tx) * ((k >> 1) ? ty : 1 - ty);
        int d;
        if (x < 0 || y < 0 || x >= g->w || y >= g->h)
            continue;
        d = dir[(size_t)y * (size_t)g->w + (size_t)x];
        if (d >= 8)
            continue;  /* blocked, unreachable or goal: no direction */
        ax += wgt * unit_x[d];
        ay += wgt * unit_y[d];
    }
    len2 = ax * ax + ay * ay;
    if (len2 < 1e-6)
        return ff_sample_raw(g, dir, px, py, dx, dy) < 8;
    len2 = sqrt(len2);
    *dx = ax / len2;
    *dy = ay / len2;
    return 1;
}

int ff_sample_raw_vector(const ff_grid *g, const float *vec, double px, double py, double *dx,
                         double *dy)
{
    long long x, y;
    size_t i;

    *dx = *dy = 0;
    if (!ff_world_to_cell(g, px, py, &x, &y))
        return 0;
    i = (size_t)y * (size_t)g->w + (size_t)x;
    *dx = vec[2 * i];
    *dy = vec[2 * i + 1];
    return *dx != 0 || *dy != 0;
}

int ff_sample_smooth_vector(const ff_grid *g, const float *vec, double px, double py,
                            double *dx, double *dy)
{
    long long x0, y0;
    double tx, ty, ax = 0, ay = 0, len2;

    (void)sample_square(g, (px - g->origin_x) / g->cell_size, (py - g->origin_y) / g->cell_size,
                        &x0, &y0, &tx, &ty);
    for (int k = 0; k < 4; k++) {
        long long x = x0 + (k & 1), y = y0 + (k >> 1);
        double wgt = ((k & 1) ? tx : 1 - tx) * ((k >> 1) ? ty : 1 - ty), vx, vy, len;
        size_t i;
        if (x < 0 || y < 0 || x >= g->w || y >= g->h)
            continue;
        i = (size_t)y * (size_t)g->w + (size_t)x;
        vx = vec[2 * i];
        vy = vec[2 * i + 1];
        len = sqrt(vx * vx + vy * vy);
        if (!(len > 0))
            continue;  /* goal, wall or unreachable: no direction */
        ax += wgt * vx / len;
        ay += wgt * vy / len;
    }
    len2 = ax * ax + ay * ay;
    if (len2 < 1e-6)
        return ff_sample_raw_vector(g, vec, px, py, dx, dy);
    len2 = sqrt(len2);
    *dx = ax / len2;
    *dy = ay / len2;
    return 1;
}
