/* funnel.c - corridors and the funnel algorithm; see funnel.h. */
#include "funnel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "grow.h"
#include "los.h"
#include "sample.h"

void ff_corridor_init(ff_corridor *c)
{
    c->start_x = c->start_y = c->goal_x = c->goal_y = 0;
    c->start_line = c->goal_line = 0;
    c->portal = NULL;
    c->n = c->cap = 0;
}

void ff_corridor_free(ff_corridor *c)
{
    free(c->portal);
    ff_corridor_init(c);
}

ff_status ff_corridor_push(ff_corridor *c, double lx, double ly, double rx, double ry,
                           long line, ff_error *err)
{
    ff_portal *p;

    if (c->n == c->cap) {
        ff_portal *grown = ff_grow(c->portal, &c->cap, c->n + 1, sizeof *grown, 64);
        if (!grown)
            return ff_error_set(err, FF_ENOMEM, NULL, line, 0, "out of memory for the portals");
        c->portal = grown;
    }
    p = &c->portal[c->n++];
    p->lx = lx;
    p->ly = ly;
    p->rx = rx;
    p->ry = ry;
    p->line = line;
    return FF_OK;
}

ff_status ff_corridor_read(ff_corridor *c, ff_records *r, ff_error *err)
{
    double v[4], point_x = 0, point_y = 0;
    long point_line = 0;
    int count, have_start = 0, have_point = 0, k;
    ff_status st;

    while ((st = ff_records_next(r, v, 2, 4, &count, err)) == FF_OK) {
        for (k = 0; k < count; k++)
            if (fabs(v[k]) > FF_FUNNEL_COORD_MAX)
                return ff_error_set(err, FF_EINPUT, r->name, r->line, 0,
                                    "coordinate %g is out of range (|v| <= %g)", v[k],
                                    FF_FUNNEL_COORD_MAX);
        if (count == 3)
            return ff_error_set(err, FF_EINPUT, r->name, r->line, 0,
                                "3 numbers on the line: a point has 2 (x y), "
                                "a portal 4 (lx ly rx ry)");
        if (!have_start) {
            if (count != 2)
                return ff_error_set(err, FF_EINPUT, r->name, r->line, 0,
                                    "the first line must be the start `x y`, not a portal");
            c->start_x = v[0];
            c->start_y = v[1];
            c->start_line = r->line;
            have_start = 1;
            continue;
        }
        if (have_point)
            return ff_error_set(err, FF_EINPUT, r->name, point_line, 0,
                                "a point before the end of the corridor: only the first "
                                "line (the start) and the last (the goal) are `x y`");
        if (count == 2) {
            point_x = v[0];
            point_y = v[1];
            point_line = r->line;
            have_point = 1;
        } else if ((st = ff_corridor_push(c, v[0], v[1], v[2], v[3], r->line, err)) != FF_OK) {
            if (err)
                snprintf(err->file, sizeof err->file, "%s", r->name);
            return st;
        }
    }
    if (st != FF_ENOTFOUND)
        return st;
    if (!have_start)
        return ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                            "empty input: a corridor is a start `x y`, portals "
                            "`lx ly rx ry` and a goal `x y`");
    if (!have_point)
        return ff_error_set(err, FF_EINPUT, r->name, r->line, 0,
                            c->n ? "the corridor ends without a goal: the last line must be `x y`"
                                 : "one point: a corridor needs a start and a goal");
    c->goal_x = point_x;
    c->goal_y = point_y;
    c->goal_line = point_line;
    return FF_OK;
}

/* Open and of terrain class cls. */
static int open_in_class(const ff_grid *g, long long x, long long y, uint8_t cls)
{
    size_t i;

    if (x < 0 || y < 0 || x >= g->w || y >= g->h)
        return 0;
    i = (size_t)y * (size_t)g->w + (size_t)x;
    return ff_grid_open(g, i) && (!g->terrain || g->terrain[i] == cls);
}

/* The shared edge of cell (x, y) and its orthogonal neighbour (x+dx, y+dy),
 * left end first as seen walking from the first to the second. */
static ff_status push_edge(const ff_grid *g, long long x, long long y, int dx, int dy,
                           long line, ff_corridor *c, ff_error *err)
{
    double c_size = g->cell_size;
    double lx = (double)(x + (1 + dx + dy) / 2), ly = (double)(y + (1 + dy - dx) / 2);
    double rx = (double)(x + (1 + dx - dy) / 2), ry = (double)(y + (1 + dy + dx) / 2);

    return ff_corridor_push(c, g->origin_x + c_size * lx, g->origin_y + c_size * ly,
                            g->origin_x + c_size * rx, g->origin_y + c_size * ry, line, err);
}

ff_status ff_corridor_from_cells(const ff_grid *g, const ff_path *cells, const char *file,
                                 ff_corridor *c, ff_error *err)
{
    long long px = 0, py = 0;
    uint8_t cls = 0;
    size_t k;
    ff_status st;

    if (cells->n < 2)
        return ff_error_set(err, FF_EINPUT, file, cells->n ? cells->line[0] : 0, 0,
                            "the cell path has %zu point%s; at least two are needed",
                            cells->n, cells->n == 1 ? "" : "s");
    for (k = 0; k < cells->n; k++) {
        double wx = cells->xy[2 * k], wy = cells->xy[2 * k + 1];
        long long x, y;
        int dx, dy;
        if (!ff_world_to_cell(g, wx, wy, &x, &y))
            return ff_error_set(err, FF_EINPUT, file, cells->line[k], 0,
                                "point %g %g lies outside the %dx%d map", wx, wy, g->w, g->h);
        if (!ff_grid_open(g, (size_t)y * (size_t)g->w + (size_t)x))
            return ff_error_set(err, FF_EINPUT, file, cells->line[k], 0,
                                "point %g %g lies in blocked cell %lld,%lld", wx, wy, x, y);
        if (k == 0) {
            px = x;
            py = y;
            cls = g->terrain ? g->terrain[(size_t)y * (size_t)g->w + (size_t)x] : 0;
            continue;
        }
        if (x == px && y == py)
            continue;
        if (x - px < -1 || x - px > 1 || y - py < -1 || y - py > 1)
            return ff_error_set(err, FF_EINPUT, file, cells->line[k], 0,
                                "cell %lld,%lld is not a neighbour of the previous cell "
                                "%lld,%lld: a cell path moves one cell at a time", x, y, px, py);
        dx = (int)(x - px);
        dy = (int)(y - py);
        if (dx && dy) {
            /* A corner only: put a side cell between, x side first. */
            int side_dx = 0, side_dy = 0;
            if (open_in_class(g, px + dx, py, cls))
                side_dx = dx;
            else if (open_in_class(g, px, py + dy, cls))
                side_dy = dy;
            if (side_dx || side_dy) {
                st = push_edge(g, px, py, side_dx, side_dy, cells->line[k], c, err);
                if (st == FF_OK)
                    st = push_edge(g, px + side_dx, py + side_dy, dx - side_dx, dy - side_dy,
                                   cells->line[k], c, err);
            } else {
                double vx = g->origin_x + g->cell_size * (double)(px + (dx > 0));
                double vy = g->origin_y + g->cell_size * (double)(py + (dy > 0));
                st = ff_corridor_push(c, vx, vy, vx, vy, cells->line[k], err);
            }
        } else
            st = push_edge(g, px, py, dx, dy, cells->line[k], c, err);
        if (st != FF_OK)
            return st;
        px = x;
        py = y;
    }
    c->start_x = cells->xy[0];
    c->start_y = cells->xy[1];
    c->start_line = cells->line[0];
    c->goal_x = cells->xy[2 * cells->n - 2];
    c->goal_y = cells->xy[2 * cells->n - 1];
    c->goal_line = cells->line[cells->n - 1];
    return FF_OK;
}

/* 1 when q lies ahead of the portal l -> r (beyond its line, walking on). */
static int ahead(const ff_portal *p, double qx, double qy)
{
    return ff_orient(p->lx, p->ly, p->rx, p->ry, qx, qy) < 0;
}

static int zero_width(const ff_portal *p)
{
    return p->lx == p->rx && p->ly == p->ry;
}

ff_status ff_corridor_check(const ff_corridor *c, const char *file, ff_error *err)
{
    size_t k;

    for (k = 0; k < c->n; k++) {
        const ff_portal *p = &c->portal[k];
        int bad;
        if (zero_width(p))
            continue;
        if (k == 0)
            bad = ahead(p, c->start_x, c->start_y);
        else
            bad = ahead(p, c->portal[k - 1].lx, c->portal[k - 1].ly) ||
                  ahead(p, c->portal[k - 1].rx, c->portal[k - 1].ry);
        if (bad)
            return ff_error_set(err, FF_EINPUT, file, p->line, 0,
                                "portal %zu faces backwards: the %s lies ahead of it "
                                "(are its left and right ends swapped? they are as seen "
                                "walking the corridor, north up)",
                                k + 1, k == 0 ? "start" : "previous portal");
    }
    if (c->n > 0 && !zero_width(&c->portal[c->n - 1]) &&
        ff_orient(c->portal[c->n - 1].lx, c->portal[c->n - 1].ly, c->portal[c->n - 1].rx,
                  c->portal[c->n - 1].ry, c->goal_x, c->goal_y) > 0)
        return ff_error_set(err, FF_EINPUT, file, c->goal_line, 0,
                            "the goal lies behind the last portal (line %ld): are its "
                            "left and right ends swapped?", c->portal[c->n - 1].line);
    return FF_OK;
}

ff_status ff_corridor_shrink(ff_corridor *c, double radius, const char *file, ff_error *err)
{
    size_t k;

    if (!(radius >= 0) || !isfinite(radius))
        return ff_error_set(err, FF_EUSAGE, NULL, 0, 0, "radius %g must be finite and >= 0",
                            radius);
    if (radius == 0)
        return FF_OK;
    for (k = 0; k < c->n; k++) {
        ff_portal *p = &c->portal[k];
        double ex = p->rx - p->lx, ey = p->ry - p->ly, width = hypot(ex, ey);
        /* Narrower by more than rounding: 0.7 - 0.3 is not quite 0.4. */
        if (width < 2 * radius * (1 - FF_FUNNEL_WIDTH_REL))
            return ff_error_set(err, FF_ENOTFOUND, file, p->line, 0,
                                "portal %zu is %.6g wide, narrower than 2R = %.6g: "
                                "an agent of radius %.6g cannot pass",
                                k + 1, width, 2 * radius, radius);
        if (width <= 2 * radius) {
            p->lx += 0.5 * ex;
            p->ly += 0.5 * ey;
            p->rx = p->lx;
            p->ry = p->ly;
        } else {
            double t = radius / width;
            p->lx += t * ex;
            p->ly += t * ey;
            p->rx -= t * ex;
            p->ry -= t * ey;
        }
    }
    return FF_OK;
}

/* The funnel: a double-ended queue dq[lo..hi] holding the left chain
 * dq[apex], dq[apex-1], ..., dq[lo] and the right chain dq[apex], ...,
 * dq[hi].  Each chain turns only toward the other side (the left chain
 * bends left around the left walls, the right chain right), so the funnel
 * is the set of shortest paths from the apex to the last portal. */
typedef struct {
    double x, y;
} point;

typedef struct {
    point *dq;
    size_t lo, hi, apex;
    point *corner;   /* the apexes so far, in order */
    size_t ncorner;
} funnel;

static int same(point a, point b)
{
    return a.x == b.x && a.y == b.y;
}

/* +1 when c lies left of the walk a -> b on the map drawn north up (y
 * grows south, hence the minus), -1 right, 0 on the line. */
static int side(point a, point b, point c)
{
    return -ff_orient(a.x, a.y, b.x, b.y, c.x, c.y);
}

/* Add v at the end of one chain: dir -1 the left chain, +1 the right.
 * Written once for both sides: the right is the left's mirror image, with
 * indices and turn signs negated. */
static void funnel_add(funnel *f, point v, int dir)
{
    size_t *end = dir < 0 ? &f->lo : &f->hi;

    if (same(f->dq[*end], v))
        return;
    /* Drop the chain's last vertices while v does not turn away from the
     * other side at them: the straight line reaches v without them. */
    while (*end != f->apex) {
        size_t prev = dir < 0 ? *end + 1 : *end - 1;
        if (side(f->dq[prev], f->dq[*end], v) * dir < 0)
            break;
        *end = prev;
    }
    if (*end == f->apex) {
        /* v crosses over the other chain: the apex walks along it, each
         * vertex passed becoming a corner of the path. */
        size_t *other = dir < 0 ? &f->hi : &f->lo;
        while (f->apex != *other) {
            size_t next = dir < 0 ? f->apex + 1 : f->apex - 1;
            if (side(f->dq[f->apex], f->dq[next], v) * dir <= 0)
                break;
            f->apex = next;
            f->corner[f->ncorner++] = f->dq[next];
        }
        *end = f->apex;
    }
    if (same(f->dq[*end], v))
        return;
    if (dir < 0)
        f->dq[--f->lo] = v;
    else
        f->dq[++f->hi] = v;
}

static ff_status emit(ff_path *out, size_t first, point p, ff_error *err)
{
    if (out->n > first && out->xy[2 * out->n - 2] == p.x && out->xy[2 * out->n - 1] == p.y)
        return FF_OK;
    return ff_path_push(out, p.x, p.y, 0, err);
}

ff_status ff_funnel(const ff_corridor *c, ff_path *out, ff_error *err)
{
    funnel f;
    size_t base = c->n + 2, first = out->n, k;
    point start = { c->start_x, c->start_y }, goal = { c->goal_x, c->goal_y };
    ff_status st = FF_OK;

    if (c->n > (SIZE_MAX / sizeof(point) - 8) / 4)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "corridor too long");
    f.dq = malloc((2 * c->n + 5) * sizeof *f.dq);
    f.corner = malloc((2 * c->n + 2) * sizeof *f.corner);
    if (!f.dq || !f.corner) {
        st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the funnel");
        goto done;
    }
    f.ncorner = 0;
    f.lo = f.hi = f.apex = base;
    f.dq[base] = start;
    for (k = 0; k < c->n; k++) {
        point l = { c->portal[k].lx, c->portal[k].ly }, r = { c->portal[k].rx, c->portal[k].ry };
        funnel_add(&f, l, -1);
        funnel_add(&f, r, +1);
    }
    /* The goal as a last left end: the left chain is then the shortest
     * path from the apex to it. */
    funnel_add(&f, goal, -1);
    st = emit(out, first, start, err);
    for (k = 0; st == FF_OK && k < f.ncorner; k++)
        st = emit(out, first, f.corner[k], err);
    for (k = f.apex; st == FF_OK && k > f.lo;)
        st = emit(out, first, f.dq[--k], err);
    if (st == FF_OK && out->n - first < 2)
        st = ff_path_push(out, goal.x, goal.y, 0, err);
done:
    free(f.dq);
    free(f.corner);
    return st;
}
