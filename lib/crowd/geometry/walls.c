/* walls.c - disks against walls: distance, push and sliding; see walls.h. */
#include "walls.h"

#include <math.h>

/* A substep that ends this far (in cell units) beyond the radius counts as
 * clear, so that a projected position passes the strict test again. */
#define SLIDE_SKIN 1e-9
#define SLIDE_TRIES 4

/* The cell of a world coordinate, clamped far outside the int range. */
static inline long cell_of(double v, double origin, double inv_cell)
{
    double f = (v - origin) * inv_cell;
    long t;
    if (!(f > -1e9))
        return -1000000000L;
    if (f > 1e9)
        return 1000000000L;
    t = (long)f;  /* truncation, then down for negative fractions */
    return t - ((double)t > f);
}

/* A blocked cell, by the near-wall map (0 exactly on the blocked cells:
 * one byte a cell to read instead of a cost). */
static inline int blocked_near(const ff_walls *w, long x, long y)
{
    const ff_grid *g = w->grid;
    if (x < 0 || y < 0 || x >= g->w || y >= g->h)
        return 1;
    return w->near[(size_t)y * (size_t)g->w + (size_t)x] == 0;
}

int ff_walls_open_at(const ff_walls *w, double x, double y)
{
    const ff_grid *g = w->grid;
    return !blocked_near(w, cell_of(x, g->origin_x, w->inv_cell), cell_of(y, g->origin_y, w->inv_cell));
}

/* 1 when no wall can lie within reach of (x, y), by the near-wall map
 * alone. */
static inline int far_from_walls(const ff_walls *w, long gx, long gy, double reach)
{
    const ff_grid *g = w->grid;
    double k = ff_walls_cells(w, reach) + 1;
    if (gx < 0 || gy < 0 || gx >= g->w || gy >= g->h)
        return 0;
    return (double)w->near[(size_t)gy * (size_t)g->w + (size_t)gx] > k;
}

/* The range of cells whose squares may lie within reach of v. */
static inline void cell_span(double v, double reach, double origin, double inv_cell, long limit,
                      long *lo, long *hi)
{
    *lo = cell_of(v - reach, origin, inv_cell);
    *hi = cell_of(v + reach, origin, inv_cell);
    if (*lo < -1) *lo = -1;
    if (*hi > limit) *hi = limit;
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

double ff_walls_nearest(const ff_walls *w, double x, double y, double reach,
                        double *cx, double *cy)
{
    const ff_grid *g = w->grid;
    double c = g->cell_size, best = reach * reach, bx = x, by = y;
    long gx = cell_of(x, g->origin_x, w->inv_cell), gy = cell_of(y, g->origin_y, w->inv_cell);
    long x0, x1, y0, y1, i, j;
    int found = 0;

    if (gx >= 0 && gy >= 0 && gx < g->w && gy < g->h) {
        /* The common case: far from every wall, by one byte. */
        int n = w->near[(size_t)gy * (size_t)g->w + (size_t)gx];
        if ((double)n > ff_walls_cells(w, reach) + 1)
            return reach;
    }
    if (blocked_near(w, gx, gy)) {
        if (cx) *cx = x;
        if (cy) *cy = y;
        return 0;
    }
    cell_span(x, reach, g->origin_x, w->inv_cell, g->w, &x0, &x1);
    cell_span(y, reach, g->origin_y, w->inv_cell, g->h, &y0, &y1);
    for (j = y0; j <= y1; j++)
        for (i = x0; i <= x1; i++) {
            double qx, qy, d2;
            if (!blocked_near(w, i, j))
                continue;
            qx = clampd(x, g->origin_x + (double)i * c, g->origin_x + (double)(i + 1) * c);
            qy = clampd(y, g->origin_y + (double)j * c, g->origin_y + (double)(j + 1) * c);
            d2 = (x - qx) * (x - qx) + (y - qy) * (y - qy);
            if (d2 < best) {
                best = d2;
                bx = qx;
                by = qy;
                found = 1;
            }
        }
    if (!found)
        return reach;
    if (cx) *cx = bx;
    if (cy) *cy = by;
    return sqrt(best);
}

void ff_walls_push(const ff_walls *w, double x, double y, double r, double look,
                   double *px, double *py)
{
    const ff_grid *g = w->grid;
    double c = g->cell_size, reach = r + look, sx = 0, sy = 0, len2;
    long gx = cell_of(x, g->origin_x, w->inv_cell), gy = cell_of(y, g->origin_y, w->inv_cell);
    long x0, x1, y0, y1, i, j;

    *px = *py = 0;
    if (blocked_near(w, gx, gy) || far_from_walls(w, gx, gy, reach))
        return;
    cell_span(x, reach, g->origin_x, w->inv_cell, g->w, &x0, &x1);
    cell_span(y, reach, g->origin_y, w->inv_cell, g->h, &y0, &y1);
    for (j = y0; j <= y1; j++)
        for (i = x0; i <= x1; i++) {
            double qx, qy, d, gap;
            if (!blocked_near(w, i, j))
                continue;
            qx = clampd(x, g->origin_x + (double)i * c, g->origin_x + (double)(i + 1) * c);
            qy = clampd(y, g->origin_y + (double)j * c, g->origin_y + (double)(j + 1) * c);
            d = sqrt((x - qx) * (x - qx) + (y - qy) * (y - qy));
            if (!(d > 0) || d >= reach)
                continue;
            gap = d - r > 0 ? d - r : 0;
            sx += (x - qx) / d * (1 - gap / look);
            sy += (y - qy) / d * (1 - gap / look);
        }
    len2 = sx * sx + sy * sy;
    if (len2 > 1) {
        len2 = sqrt(len2);
        sx /= len2;
        sy /= len2;
    }
    *px = sx;
    *py = sy;
}

int ff_walls_slide(const ff_walls *w, double r, double *x, double *y, double dx, double dy)
{
    int far;
    return ff_walls_slide_far(w, r, x, y, dx, dy, &far);
}

int ff_walls_slide_far(const ff_walls *w, double r, double *x, double *y, double dx, double dy,
                       int *far)
{
    const ff_grid *g = w->grid;
    return ff_walls_slide_from(w, cell_of(*x, g->origin_x, w->inv_cell),
                               cell_of(*y, g->origin_y, w->inv_cell), r, x, y, dx, dy, far);
}

int ff_walls_slide_from(const ff_walls *w, long gx, long gy, double r, double *x, double *y,
                        double dx, double dy, int *far)
{
    double c = w->grid->cell_size, skin = SLIDE_SKIN * c;
    double len = sqrt(dx * dx + dy * dy), max_sub = 0.5 * (r < c ? r : c);
    double px = *x, py = *y, sx, sy;
    long n, k;
    int cut = 0;

    *far = 0;
    if (!(len > 0))
        return 0;
    {
        /* A move longer than the map's width and height together comes
         * from a speed that crosses the map in one step (a scenario's
         * mistake): it is cut to that length, so that the number of its
         * substeps stays bounded by the map's size. */
        double most = ((double)w->grid->w + (double)w->grid->h) * c + 2 * r;
        /* And one of more substeps than FF_SLIDE_SUBSTEPS_MAX (a tiny
         * radius at a great speed) to that many: a move's work is bounded
         * whatever the speed and the radius. */
        if (most > FF_SLIDE_SUBSTEPS_MAX * max_sub)
            most = FF_SLIDE_SUBSTEPS_MAX * max_sub;
        if (len > most) {
            dx *= most / len;
            dy *= most / len;
            len = most;
        }
    }
    {
        /* ceil, the same value, without a library call when it fits */
        double q = len / max_sub;
        if (q < 1e15) {
            n = (long)q;
            n += (double)n < q;
        } else {
            n = (long)ceil(q);
        }
    }
    if (n < 1)
        n = 1;
    if (n > FF_SLIDE_SUBSTEPS_MAX)  /* len / max_sub rounded up past it */
        n = FF_SLIDE_SUBSTEPS_MAX;
    sx = dx / (double)n;
    sy = dy / (double)n;
    {
        /* The common case: no wall within r + len of the start, so none
         * within r of any substep's end; every substep is taken whole
         * (the same additions as below, without the searches). */
        if (far_from_walls(w, gx, gy, r + len)) {
            for (k = 0; k < n; k++) {
                px += sx;
                py += sy;
            }
            *x = px;
            *y = py;
            *far = 1;
            return 0;
        }
    }
    for (k = 0; k < n; k++) {
        double qx = px + sx, qy = py + sy;
        double d = r;
        int t;
        for (t = 0; t < SLIDE_TRIES; t++) {
            double wx, wy;
            d = ff_walls_nearest(w, qx, qy, r, &wx, &wy);
            if (d >= r)
                break;
            if (!(d > 0))
                break;  /* inside a wall: no normal to slide along */
            cut = 1;
            qx = wx + (qx - wx) / d * (r + skin);
            qy = wy + (qy - wy) / d * (r + skin);
        }
        if (t == SLIDE_TRIES)
            d = ff_walls_nearest(w, qx, qy, r, NULL, NULL);
        if (d < r && !(d > ff_walls_nearest(w, px, py, r, NULL, NULL))) {
            cut = 1;
            break;  /* a corner that projection cannot leave: stay */
        }
        px = qx;
        py = qy;
        *far = d >= r;  /* measured where it now stands */
    }
    *x = px;
    *y = py;
    return cut;
}
