/* pull.c - paths and string pulling; see pull.h. */
#include "pull.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "grow.h"
#include "los.h"
#include "realfmt.h"
#include "sample.h"

void ff_path_init(ff_path *p)
{
    p->xy = NULL;
    p->line = NULL;
    p->n = p->cap = 0;
}

void ff_path_free(ff_path *p)
{
    free(p->xy);
    free(p->line);
    ff_path_init(p);
}

ff_status ff_path_push(ff_path *p, double x, double y, long line, ff_error *err)
{
    if (p->n == p->cap) {
        size_t points_cap = p->cap;
        double *xy = ff_grow(p->xy, &points_cap, p->n + 1, 2 * sizeof *xy, 64);
        long *lines;
        if (!xy)
            return ff_error_set(err, FF_ENOMEM, NULL, line, 0, "out of memory for the path");
        p->xy = xy;
        if (!(lines = ff_grow(p->line, &p->cap, p->n + 1, sizeof *lines, 64)))
            return ff_error_set(err, FF_ENOMEM, NULL, line, 0, "out of memory for the path");
        p->line = lines;
    }
    p->xy[2 * p->n] = x;
    p->xy[2 * p->n + 1] = y;
    p->line[p->n] = line;
    p->n++;
    return FF_OK;
}

ff_status ff_path_read(ff_path *p, ff_records *r, ff_error *err)
{
    double v[2];
    int count;
    ff_status st;

    while ((st = ff_records_next(r, v, 2, 2, &count, err)) == FF_OK)
        if ((st = ff_path_push(p, v[0], v[1], r->line, err)) != FF_OK)
            return st;
    return st == FF_ENOTFOUND ? FF_OK : st;
}

static void put_real(FILE *out, double v)
{
    char buf[FF_REAL_TEXT_MAX];

    ff_format_exact(v, buf, sizeof buf);
    fputs(buf, out);
}

void ff_point_write(FILE *out, double x, double y)
{
    put_real(out, x);
    putc(' ', out);
    put_real(out, y);
    putc('\n', out);
}

double ff_polyline_length(const double *xy, size_t n)
{
    double len = 0;
    size_t k;

    for (k = 1; k < n; k++)
        len += hypot(xy[2 * k] - xy[2 * k - 2], xy[2 * k + 1] - xy[2 * k - 1]);
    return len;
}

static int in_sight(const ff_grid *g, const double *xy, size_t i, size_t j)
{
    return ff_los(g, xy[2 * i], xy[2 * i + 1], xy[2 * j], xy[2 * j + 1]);
}

/* The next kept point after i (see pull.h): the last point of the path
 * in sight of i, searched from the end; i + 1 when no later one is. */
static size_t next_kept(const ff_grid *g, const double *xy, size_t n, size_t i)
{
    size_t far = n - 1;

    while (far > i + 1 && !in_sight(g, xy, i, far))
        far--;
    return far;
}

ff_status ff_pull(const ff_grid *g, const ff_path *path, const char *file,
                  size_t *keep, size_t *nkeep, ff_error *err)
{
    size_t k, i;

    if (path->n == 0)
        return ff_error_set(err, FF_EINPUT, file, 0, 0,
                            "empty input: no path (want points 'x y' or 'x,y', one a line, "
                            "at least two)");
    if (path->n < 2)
        return ff_error_set(err, FF_EINPUT, file, path->line[0], 0,
                            "the path has %zu point%s; at least two are needed",
                            path->n, path->n == 1 ? "" : "s");
    for (k = 0; k < path->n; k++) {
        double x = path->xy[2 * k], y = path->xy[2 * k + 1];
        long long cx, cy;
        if (!ff_world_to_cell(g, x, y, &cx, &cy))
            return ff_error_set(err, FF_EINPUT, file, path->line[k], 0,
                                "point %g %g lies outside the %dx%d map", x, y, g->w, g->h);
        if (!ff_grid_open(g, (size_t)cy * (size_t)g->w + (size_t)cx))
            return ff_error_set(err, FF_EINPUT, file, path->line[k], 0,
                                "point %g %g lies in blocked cell %lld,%lld%s", x, y, cx, cy,
                                g->radius > 0 ? " (closed by the clearance radius)" : "");
    }
    *nkeep = 0;
    keep[(*nkeep)++] = 0;
    for (i = 0; i < path->n - 1;) {
        i = next_kept(g, path->xy, path->n, i);
        keep[(*nkeep)++] = i;
    }
    return FF_OK;
}
