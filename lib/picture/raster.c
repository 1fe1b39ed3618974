/* raster.c - marks as pixel spans, and shape lists drawn a row at a time;
 * see raster.h.  A row draws only the shapes active on it, kept in a list
 * sorted by first row, in their drawing order. */
#include "raster.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "palette.h"

/* The x extent, on the horizontal line y = yc, of the capsule of radius r
 * around segment a-b.  The capsule is convex and the union of two discs
 * and a rectangle, so the extent is the hull of the three pieces' extents.
 * Returns 0 when the line misses it. */
int ff_capsule_span(double ax, double ay, double bx, double by, double r, double yc,
                        double *lo, double *hi)
{
    double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy, v = yc - ay, e;

    *lo = INFINITY;
    *hi = -INFINITY;
    if (v * v <= r * r) {
        e = sqrt(r * r - v * v);
        *lo = ax - e;
        *hi = ax + e;
    }
    if ((yc - by) * (yc - by) <= r * r) {
        e = sqrt(r * r - (yc - by) * (yc - by));
        if (bx - e < *lo)
            *lo = bx - e;
        if (bx + e > *hi)
            *hi = bx + e;
    }
    if (len2 > 0) {
        /* Points (ax + u, yc): |cross(d, (u, v))| <= r |d| (within r of the
         * line) and 0 <= dot(d, (u, v)) <= |d|^2 (between the ends). */
        double rl = r * sqrt(len2), ulo = -INFINITY, uhi = INFINITY, p, q;
        if (dy != 0) {
            p = (dx * v - rl) / dy;
            q = (dx * v + rl) / dy;
            ulo = p < q ? p : q;
            uhi = p < q ? q : p;
        } else if (fabs(dx * v) > rl) {
            return *lo <= *hi;
        }
        if (dx != 0) {
            p = -dy * v / dx;
            q = (len2 - dy * v) / dx;
            if ((p < q ? p : q) > ulo)
                ulo = p < q ? p : q;
            if ((p < q ? q : p) < uhi)
                uhi = p < q ? q : p;
        } else if (dy * v < 0 || dy * v > len2) {
            return *lo <= *hi;
        }
        if (ulo <= uhi) {
            if (ax + ulo < *lo)
                *lo = ax + ulo;
            if (ax + uhi > *hi)
                *hi = ax + uhi;
        }
    }
    return *lo <= *hi;
}

/* The x extent of a triangle on the line y = yc (closed); 0 when missed. */
int ff_triangle_span(const double *x, const double *y, double yc, double *lo, double *hi)
{
    int k;

    *lo = INFINITY;
    *hi = -INFINITY;
    for (k = 0; k < 3; k++) {
        double x0 = x[k], y0 = y[k], x1 = x[(k + 1) % 3], y1 = y[(k + 1) % 3], xc;
        if ((yc < y0 && yc < y1) || (yc > y0 && yc > y1))
            continue;
        if (y0 == y1) {
            xc = x0 < x1 ? x0 : x1;
            if (xc < *lo)
                *lo = xc;
            xc = x0 < x1 ? x1 : x0;
            if (xc > *hi)
                *hi = xc;
            continue;
        }
        xc = x0 + (yc - y0) * (x1 - x0) / (y1 - y0);
        if (xc < *lo)
            *lo = xc;
        if (xc > *hi)
            *hi = xc;
    }
    return *lo <= *hi;
}

/* The pixel columns whose centers lie in [lo, hi], clipped to [0, limit):
 * sets *x0, *x1 (inclusive); 0 when none. */
int ff_span_columns(double lo, double hi, int64_t limit, int64_t *x0, int64_t *x1)
{
    double a = ceil(lo - 0.5), b = floor(hi - 0.5);

    if (a < 0)
        a = 0;
    if (b > (double)(limit - 1))
        b = (double)(limit - 1);
    if (!(a <= b))
        return 0;
    *x0 = (int64_t)a;
    *x1 = (int64_t)b;
    return 1;
}

void ff_fill(uint8_t *row, int64_t x0, int64_t x1, const uint8_t *rgb)
{
    uint8_t *p = row + 3 * x0;
    int64_t x;

    for (x = x0; x <= x1; x++, p += 3)
        ff_set_rgb(p, rgb);
}

ff_status ff_shapes_push(ff_shapes *s, double ax, double ay, double bx, double by, double r,
                         const uint8_t *rgb, const char *name, ff_error *err)
{
    ff_shape *sh;

    if (s->n == s->cap) {
        ff_shape *grown;
        /* The rows list shapes by uint32_t index. */
        if (s->n >= UINT32_MAX || !(grown = ff_grow(s->shape, &s->cap, s->n + 1, sizeof *grown, 64)))
            return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for %zu overlay marks",
                                s->n + 1);
        s->shape = grown;
    }
    sh = &s->shape[s->n++];
    sh->ax = ax;
    sh->ay = ay;
    sh->bx = bx;
    sh->by = by;
    sh->r = r;
    sh->row0 = (int64_t)floor((ay < by ? ay : by) - r);
    sh->row1 = (int64_t)floor((ay < by ? by : ay) + r);
    ff_set_rgb(sh->rgb, rgb);
    sh->top = 0;
    return FF_OK;
}

void ff_shapes_free(ff_shapes *s)
{
    free(s->shape);
    memset(s, 0, sizeof *s);
}

typedef struct {
    int64_t row0;
    uint32_t index;
} by_row;

static int by_row_cmp(const void *a, const void *b)
{
    const by_row *p = a, *q = b;

    if (p->row0 != q->row0)
        return p->row0 < q->row0 ? -1 : 1;
    return p->index < q->index ? -1 : p->index > q->index;
}

ff_status ff_shape_rows_begin(ff_shape_rows *r, const ff_shapes *list, ff_error *err)
{
    size_t n = list->n, k;
    by_row *tmp;

    memset(r, 0, sizeof *r);
    r->list = list;
    if (!n)
        return FF_OK;
    r->order = malloc(n * sizeof *r->order);
    r->active = malloc(n * sizeof *r->active);
    r->merged = malloc(n * sizeof *r->merged);
    r->incoming = malloc(n * sizeof *r->incoming);
    tmp = malloc(n * sizeof *tmp);
    if (!r->order || !r->active || !r->merged || !r->incoming || !tmp) {
        free(tmp);
        ff_shape_rows_end(r);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu overlay marks", n);
    }
    for (k = 0; k < n; k++) {
        tmp[k].row0 = list->shape[k].row0;
        tmp[k].index = (uint32_t)k;
    }
    qsort(tmp, n, sizeof *tmp, by_row_cmp);
    for (k = 0; k < n; k++)
        r->order[k] = tmp[k].index;
    free(tmp);
    return FF_OK;
}

static int by_index_cmp(const void *a, const void *b)
{
    uint32_t p = *(const uint32_t *)a, q = *(const uint32_t *)b;

    return p < q ? -1 : p > q;
}

/* The active list is kept in drawing order without inserting into it one
 * by one (a memmove each, quadratic in the marks a row holds): the marks a
 * row takes in are sorted among themselves and merged with the ones kept,
 * so a row costs what drawing it costs, plus its own marks' sort. */
void ff_shape_rows_step(ff_shape_rows *r, uint32_t py)
{
    const ff_shape *shape = r->list->shape;
    size_t k, kept, nin = 0, a, b, m;
    uint32_t *swap;

    /* Retire the marks that ended above this row. */
    for (k = kept = 0; k < r->nactive; k++)
        if (shape[r->active[k]].row1 >= (int64_t)py)
            r->active[kept++] = r->active[k];
    r->nactive = kept;
    /* Take in the marks that start here (in first-row order). */
    while (r->next < r->list->n && shape[r->order[r->next]].row0 <= (int64_t)py) {
        uint32_t idx = r->order[r->next++];
        if (shape[idx].row1 >= (int64_t)py)
            r->incoming[nin++] = idx;
    }
    if (nin == 0)
        return;
    /* A batch of one first row is in index order already (the order's
     * tie-break); one of several (the first row drawn: every mark starting
     * above the picture) is sorted. */
    for (k = 1; k < nin && r->incoming[k - 1] < r->incoming[k]; k++)
        ;
    if (k < nin)
        qsort(r->incoming, nin, sizeof *r->incoming, by_index_cmp);
    for (a = b = m = 0; a < r->nactive || b < nin;)
        r->merged[m++] = b == nin || (a < r->nactive && r->active[a] < r->incoming[b])
                             ? r->active[a++]
                             : r->incoming[b++];
    swap = r->active;
    r->active = r->merged;
    r->merged = swap;
    r->nactive = m;
}

void ff_shape_rows_draw(const ff_shape_rows *r, uint8_t *row, uint32_t py, int64_t limit,
                        int top)
{
    size_t k;
    double lo, hi;
    int64_t x0, x1;

    for (k = 0; k < r->nactive; k++) {
        const ff_shape *sh = &r->list->shape[r->active[k]];
        if (sh->top == top &&
            ff_capsule_span(sh->ax, sh->ay, sh->bx, sh->by, sh->r, py + 0.5, &lo, &hi) &&
            ff_span_columns(lo, hi, limit, &x0, &x1))
            ff_fill(row, x0, x1, sh->rgb);
    }
}

void ff_shape_rows_rewind(ff_shape_rows *r)
{
    r->nactive = r->next = 0;
}

void ff_shape_rows_end(ff_shape_rows *r)
{
    free(r->order);
    free(r->active);
    free(r->merged);
    free(r->incoming);
    r->order = r->active = r->merged = r->incoming = NULL;
    r->nactive = r->next = 0;
}
