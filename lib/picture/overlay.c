/* overlay.c - paths, traces and points as marks, and the density of
 * traces; see overlay.h and man 1 ffpng. */
#include "overlay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "palette.h"
#include "records.h"

/* Marks farther than this outside the picture are refused rather than
 * risk overflow: 2^40 pixels. */
#define FAR_PIXELS 1099511627776.0

void ff_overlay_init(ff_overlay *o, const ff_grid *g, int scale)
{
    memset(o, 0, sizeof *o);
    o->grid = g;
    o->scale = scale;
    o->every = 1;
}

void ff_overlay_free(ff_overlay *o)
{
    ff_shapes_free(&o->shapes);
    free(o->density_count);
    memset(o, 0, sizeof *o);
}

static double at_least(double v, double lo)
{
    return v > lo ? v : lo;
}

double ff_overlay_ring(int scale)
{
    return at_least(0.03 * scale, 1.0);
}

double ff_overlay_trail(int scale)
{
    return at_least(0.03 * scale, 0.5);
}

ff_status ff_overlay_to_pixels(const ff_grid *g, int scale, double wx, double wy, double *px,
                               double *py, const char *name, long line, ff_error *err)
{
    *px = (wx - g->origin_x) / g->cell_size * scale;
    *py = (wy - g->origin_y) / g->cell_size * scale;
    if (!(fabs(*px) <= FAR_PIXELS) || !(fabs(*py) <= FAR_PIXELS))
        return ff_error_set(err, FF_EINPUT, name, line, 0,
                            "position %g %g lies too far outside the map", wx, wy);
    return FF_OK;
}

static ff_status push(ff_overlay *o, double ax, double ay, double bx, double by, double r,
                      const uint8_t *rgb, const char *name, ff_error *err)
{
    return ff_shapes_push(&o->shapes, ax, ay, bx, by, r, rgb, name, err);
}

ff_status ff_overlay_read_path(ff_overlay *o, FILE *f, const char *name, ff_error *err)
{
    const uint8_t *line_rgb = ff_path_colour[o->npath % FF_PALETTE_SIZE];
    uint8_t dot_rgb[3];
    double v[2], *pt = NULL, s = o->scale;
    double line_r = at_least(0.06 * s, 0.6), dot_r = at_least(0.15 * s, 1.5);
    double casing = at_least(0.03 * s, 1.0);
    size_t n = 0, cap = 0, k;
    ff_records rec;
    ff_status st;
    int count, c;

    for (c = 0; c < 3; c++)
        dot_rgb[c] = (uint8_t)(line_rgb[c] * 11 / 20);
    o->npath++;
    ff_records_init(&rec, f, name);
    while ((st = ff_records_next(&rec, v, 2, 2, &count, err)) == FF_OK) {
        if (n == cap) {
            double *grown = ff_grow(pt, &cap, n + 1, 2 * sizeof *pt, 64);
            if (!grown) {
                free(pt);
                return ff_error_set(err, FF_ENOMEM, name, rec.line, 0, "out of memory for the path");
            }
            pt = grown;
        }
        if ((st = ff_overlay_to_pixels(o->grid, o->scale, v[0], v[1], &pt[2 * n], &pt[2 * n + 1],
                                       name, rec.line, err)) != FF_OK) {
            free(pt);
            return st;
        }
        n++;
    }
    if (st != FF_ENOTFOUND) {
        free(pt);
        return st;
    }
    st = FF_OK;
    /* The casing of the whole path first, then the line, then the dots,
     * so that no casing cuts a joint of the line. */
    for (k = 0; k < n && st == FF_OK; k++)
        st = push(o, pt[2 * (k ? k - 1 : 0)], pt[2 * (k ? k - 1 : 0) + 1], pt[2 * k], pt[2 * k + 1],
                  line_r + casing, ff_colour_black, name, err);
    for (k = 1; k < n && st == FF_OK; k++)
        st = push(o, pt[2 * k - 2], pt[2 * k - 1], pt[2 * k], pt[2 * k + 1], line_r, line_rgb, name,
                  err);
    for (k = 0; k < n && st == FF_OK; k++)
        st = push(o, pt[2 * k], pt[2 * k + 1], pt[2 * k], pt[2 * k + 1], dot_r, dot_rgb, name, err);
    free(pt);
    return st;
}

ff_status ff_overlay_read_points(ff_overlay *o, FILE *f, const char *name, ff_error *err)
{
    const uint8_t *rgb = ff_points_colour[o->npoints % FF_PALETTE_SIZE];
    double v[2], x, y, s = o->scale;
    double r = at_least(0.22 * s, 2.0), ring = at_least(0.05 * s, 1.0);
    ff_records rec;
    ff_status st;
    int n;

    o->npoints++;
    ff_records_init(&rec, f, name);
    while ((st = ff_records_next(&rec, v, 2, 2, &n, err)) == FF_OK) {
        if ((st = ff_overlay_to_pixels(o->grid, o->scale, v[0], v[1], &x, &y, name, rec.line,
                                       err)) != FF_OK ||
            (st = push(o, x, y, x, y, r + ring, ff_colour_black, name, err)) != FF_OK)
            return st;
        o->shapes.shape[o->shapes.n - 1].top = 1;
        if ((st = push(o, x, y, x, y, r, rgb, name, err)) != FF_OK)
            return st;
        o->shapes.shape[o->shapes.n - 1].top = 1;
    }
    return st == FF_ENOTFOUND ? FF_OK : st;
}

/* One agent of a trace: where its trail was last drawn to, where it was
 * last seen, its radius and its last state. */
typedef struct {
    double kept_x, kept_y;  /* end of the trail drawn so far, pixels */
    double last_x, last_y;  /* last position read, pixels */
    double radius;          /* pixels */
    ff_trace_state state;
} agent;

void ff_overlay_count(ff_overlay *o, double x, double y)
{
    const ff_grid *g = o->grid;
    double cx = floor((x - g->origin_x) / g->cell_size), cy = floor((y - g->origin_y) / g->cell_size);

    if (cx >= 0 && cy >= 0 && cx < g->w && cy < g->h) {
        uint32_t *c = &o->density_count[(size_t)cy * (size_t)g->w + (size_t)cx];
        if (*c < UINT32_MAX)
            ++*c;
    }
}

ff_status ff_overlay_read_trace(ff_overlay *o, FILE *f, const char *name, ff_error *err)
{
    double x, y;
    double trail_r = ff_overlay_trail(o->scale), ring = ff_overlay_ring(o->scale), radius;
    ff_trace_ids ids = { NULL, 0, 0, NULL, 0 };
    agent *ag = NULL;
    size_t cap = 0, k, idx;
    ff_trace_reader tr;
    ff_trace_record r;
    ff_status st;
    int added;

    ff_trace_init(&tr, f, name, o->every);
    o->ntrace++;
    while ((st = ff_trace_next(&tr, &r, err)) == FF_OK) {
        agent *a;
        if ((st = ff_overlay_agent(o, &r, name, tr.rec.line, &x, &y, &radius, err)) != FF_OK)
            goto done;
        if (o->density_count) {
            ff_overlay_count(o, r.x, r.y);
            continue;
        }
        if ((st = ff_trace_ids_find(&ids, r.id, &idx, &added, err)) != FF_OK)
            goto done;
        if (idx >= cap) {
            agent *grown;
            if (!(grown = ff_grow(ag, &cap, idx + 1, sizeof *grown, 16))) {
                st = ff_error_set(err, FF_ENOMEM, name, tr.rec.line, 0, "out of memory for agents");
                goto done;
            }
            ag = grown;
        }
        a = &ag[idx];
        if (added)
            a->kept_x = x, a->kept_y = y;
        a->radius = radius;
        a->last_x = x;
        a->last_y = y;
        a->state = r.state;
        o->states_seen |= 1u << r.state;
        /* A trail keeps the points that moved half a pixel or more. */
        if ((x - a->kept_x) * (x - a->kept_x) + (y - a->kept_y) * (y - a->kept_y) >= 0.25) {
            if ((st = push(o, a->kept_x, a->kept_y, x, y, trail_r, ff_state_colour[r.state], name,
                           err)) != FF_OK)
                goto done;
            a->kept_x = x;
            a->kept_y = y;
        }
    }
    if (st != FF_ENOTFOUND)
        goto done;
    st = FF_OK;
    o->density_ticks += tr.frames;
    for (k = 0; k < ids.n && st == FF_OK; k++) {
        agent *a = &ag[k];
        if (a->last_x != a->kept_x || a->last_y != a->kept_y)
            st = push(o, a->kept_x, a->kept_y, a->last_x, a->last_y, trail_r,
                      ff_state_colour[a->state], name, err);
    }
    /* Discs above every trail, in the order the agents first appeared. */
    for (k = 0; k < ids.n && st == FF_OK; k++) {
        agent *a = &ag[k];
        double rr = at_least(a->radius, 1.0);
        if ((st = push(o, a->last_x, a->last_y, a->last_x, a->last_y, rr + ring, ff_colour_black,
                       name, err)) == FF_OK)
            st = push(o, a->last_x, a->last_y, a->last_x, a->last_y, rr, ff_state_colour[a->state],
                      name, err);
    }
done:
    free(ag);
    ff_trace_ids_free(&ids);
    return st;
}

ff_status ff_overlay_agent(const ff_overlay *o, const ff_trace_record *r, const char *name,
                           long line, double *x, double *y, double *radius, ff_error *err)
{
    double s = o->scale;
    ff_status st = ff_overlay_to_pixels(o->grid, o->scale, r->x, r->y, x, y, name, line, err);

    if (st != FF_OK)
        return st;
    *radius = r->radius > 0 ? r->radius * (s / o->grid->cell_size) : FF_TRACE_RADIUS * s;
    if (!(*radius <= FAR_PIXELS))
        return ff_error_set(err, FF_EINPUT, name, line, 0, "radius %g is too large", r->radius);
    return FF_OK;
}

ff_status ff_overlay_want_density(ff_overlay *o, ff_error *err)
{
    size_t n = (size_t)o->grid->w * (size_t)o->grid->h;

    if (o->density_count)
        return FF_OK;
    if (!(o->density_count = calloc(n ? n : 1, sizeof *o->density_count)))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the density of %zu cells",
                            n);
    return FF_OK;
}

double ff_overlay_density(const ff_overlay *o, size_t cell)
{
    return o->density_count && o->density_ticks
               ? (double)o->density_count[cell] / (double)o->density_ticks
               : 0;
}
