/* anyangle.c - the any-angle field; see anyangle.h.
 *
 * The roots are the goal centres and the turning corners (anyangle.h).
 * They leave a queue in order of distance, Dijkstra's algorithm over the
 * visibility graph of the roots (Lozano-Perez and Wesley 1979) with the
 * cells as its leaves: a root r, its distance d(r) final, floods the cells
 * around it; each cell m the flood reaches is offered d(r) + |centre(m) -
 * r| when the sight line between them is free (freesight.h), and each
 * turning corner v at a corner of m is offered d(r) + |v - r| the same
 * way, which queues v again when it lowers d(v).
 *
 * Why it is exact.  Let r be the last root on a shortest path to a cell
 * centre or a corner t, S the segment from r to t.  Every point q of S has
 * the true distance D(q) = d(r) + |q - r|.  The open cells that S meets
 * follow one another as 8-neighbours, from a cell touching r to one
 * touching t, and for each such cell m, with q a point of S in it, the
 * true distance D(m) >= D(q) - |centre(m) - q| (the square is convex and
 * free) while d(r) + |centre(m) - r| <= D(q) + |centre(m) - q|, each
 * |centre(m) - q| at most sqrt(2)/2.  So r's flood, which goes on from a
 * cell to its open 8-neighbours as long as d(r) + |centre - r| is at most
 * the best distance known there plus sqrt(2) (a bound never below the
 * true one), reaches every cell S meets and offers t its true distance.
 * Nothing else prunes a flood (test_anyangle.c shows the margin is
 * needed: without it the oracle tests fail).
 *
 * How much it costs.  The bounds start at the 8-move field's distances
 * (any 8-move path is a path of the free space, under the corner rule
 * that lets a diagonal step past one wall's corner, or under cut and free
 * between two), and fall as roots are flooded, nearest first; a flood
 * spreads where its root is within sqrt(2) of the best bound so far.  A
 * sight line whose bounding box holds no wall (a summed-area table) is
 * free without walking it.
 */
#include "anyangle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "freesight.h"
#include "minheap.h"
#include "search.h"

#define NONE UINT32_MAX

typedef struct {
    const ff_grid *g;
    int64_t w, h;
    double scale;        /* world units per cell of length */
    double slack;        /* the flood's margin: sqrt(2) cells, and a hair */
    double *dist;        /* the caller's; a bound only while its sign bit
                            is set (-bound), a distance once offered */
    uint32_t *root_of;   /* NULL, or the best root of each cell */
    uint32_t *stamp;     /* per cell: 1 + the root whose flood queued it */
    uint32_t *flood;     /* the flood's queue of cells, w*h */
    uint32_t *vertex_root; /* per grid vertex, (w+1) a row: its root or NONE */
    uint32_t *blocked_sum; /* (w+1)*(h+1) summed-area table of walls */
    size_t nroots;
    uint32_t *rx, *ry;   /* each root's place in half cells */
    double *rd;          /* each root's best distance so far */
    heap roots;          /* roots by distance, stale entries skipped */
} search;

static double half_cells_apart(int64_t ax, int64_t ay, int64_t bx, int64_t by)
{
    double dx = (double)(ax - bx), dy = (double)(ay - by);
    return 0.5 * sqrt(dx * dx + dy * dy);
}

/* Walls among the cells x0..x1, y0..y1 (clipped to the map). */
static uint32_t walls_in(const search *s, int64_t x0, int64_t y0, int64_t x1, int64_t y1)
{
    const uint32_t *t = s->blocked_sum;
    int64_t W = s->w + 1;

    return t[(y1 + 1) * W + x1 + 1] - t[y0 * W + x1 + 1] - t[(y1 + 1) * W + x0] + t[y0 * W + x0];
}

/* The sight line test, with the summed-area table's shortcut: when every
 * cell the segment's bounding box meets is open, nothing can block it. */
static int sees(const search *s, int64_t ax, int64_t ay, int64_t bx, int64_t by)
{
    int64_t x0 = (ax < bx ? ax : bx) - 1, x1 = ax < bx ? bx : ax;
    int64_t y0 = (ay < by ? ay : by) - 1, y1 = ay < by ? by : ay;

    /* The cells whose closed squares meet the box, in cell indices. */
    x0 = x0 < 0 ? 0 : x0 / 2;
    y0 = y0 < 0 ? 0 : y0 / 2;
    x1 = x1 / 2 >= s->w ? s->w - 1 : x1 / 2;
    y1 = y1 / 2 >= s->h ? s->h - 1 : y1 / 2;
    if (walls_in(s, x0, y0, x1, y1) == 0)
        return 1;
    return ff_free_segment(s->g, ax, ay, bx, by);
}

/* Queue cell (x, y) in root r's flood unless it is there already, is a
 * wall, or r cannot help there. */
static void flood_cell(search *s, uint32_t r, int64_t x, int64_t y, size_t *tail)
{
    size_t i = (size_t)y * (size_t)s->w + (size_t)x;
    double key;

    if (s->stamp[i] == r + 1 || !ff_grid_open(s->g, i))
        return;
    key = s->rd[r] + s->scale * half_cells_apart(2 * x + 1, 2 * y + 1, s->rx[r], s->ry[r]);
    if (key > fabs(s->dist[i]) + s->slack)
        return;
    s->stamp[i] = r + 1;
    s->flood[(*tail)++] = (uint32_t)i;
}

/* Root r, its distance final: offer it to every cell and corner its flood
 * reaches. */
static ff_status flood_root(search *s, uint32_t r, ff_error *err)
{
    int64_t rx = s->rx[r], ry = s->ry[r];
    size_t head = 0, tail = 0;

    if (rx & 1) {
        flood_cell(s, r, (rx - 1) / 2, (ry - 1) / 2, &tail);
    } else {
        for (int k = 0; k < 4; k++) {
            int64_t cx = rx / 2 - 1 + (k & 1), cy = ry / 2 - 1 + (k >> 1);
            if (ff_free_cell(s->g, cx, cy))
                flood_cell(s, r, cx, cy, &tail);
        }
    }
    while (head < tail) {
        uint32_t i = s->flood[head++];
        int64_t x = i % (size_t)s->w, y = i / (size_t)s->w;
        double key = s->rd[r] + s->scale * half_cells_apart(2 * x + 1, 2 * y + 1, rx, ry);
        double *dist = &s->dist[i];
        if ((signbit(*dist) || key < *dist) && sees(s, 2 * x + 1, 2 * y + 1, rx, ry)) {
            *dist = key;
            if (s->root_of)
                s->root_of[i] = r;
        }
        for (int k = 0; k < 4; k++) {
            int64_t vx = x + (k & 1), vy = y + (k >> 1);
            uint32_t v = s->vertex_root[vy * (s->w + 1) + vx];
            double dv;
            if (v == NONE)
                continue;
            dv = s->rd[r] + s->scale * half_cells_apart(2 * vx, 2 * vy, rx, ry);
            if (dv < s->rd[v] && sees(s, 2 * vx, 2 * vy, rx, ry)) {
                s->rd[v] = dv;
                if (heap_push(&s->roots, dv, v) < 0)
                    return ff_error_set(err, FF_ENOMEM, NULL, 0, 0,
                                        "out of memory for the any-angle queue");
            }
        }
        for (int d = 0; d < 8; d++) {
            int64_t nx = x + ff_dir_dx[d], ny = y + ff_dir_dy[d];
            if (nx >= 0 && ny >= 0 && nx < s->w && ny < s->h)
                flood_cell(s, r, nx, ny, &tail);
        }
    }
    return FF_OK;
}

/* 1 when grid vertex (X, Y) is a turning corner: inside the map, one of its
 * four cells a wall, or under cut and free two walls touching there. */
static int turning_corner(const ff_grid *g, int64_t vx, int64_t vy)
{
    int nw, ne, sw, se;

    if (vx <= 0 || vy <= 0 || vx >= g->w || vy >= g->h)
        return 0;
    nw = ff_free_cell(g, vx - 1, vy - 1);
    ne = ff_free_cell(g, vx, vy - 1);
    sw = ff_free_cell(g, vx - 1, vy);
    se = ff_free_cell(g, vx, vy);
    if (nw + ne + sw + se == 3)
        return 1;
    return g->corners != FF_CORNERS_STRICT && nw + ne + sw + se == 2 && nw == se;
}

ff_status ff_anyangle_check(const ff_grid *g, ff_error *err)
{
    size_t n = (size_t)g->w * (size_t)g->h, i;
    float cost = -1;

    if (g->ngoals == 0)
        return ff_error_set(err, FF_EUSAGE, NULL, 0, 0,
                            "no goal: give -g X,Y, --goals FILE or goal tiles in the map");
    if (g->oneway)
        return ff_error_set(err, FF_EINPUT, NULL, 0, 0,
                            "--any-angle: the map has one-way cells; an any-angle path "
                            "has no steps to restrict");
    if (g->terrain)
        return ff_error_set(err, FF_EINPUT, NULL, 0, 0,
                            "--any-angle: the map has several terrain classes; "
                            "the any-angle field needs one");
    if (((uint64_t)g->w + 1) * ((uint64_t)g->h + 1) >= NONE)
        return ff_error_set(err, FF_EINPUT, NULL, 0, 0,
                            "--any-angle: a map of %zu cells is too large", n);
    for (i = 0; i < n; i++) {
        if (!ff_grid_open(g, i))
            continue;
        if (cost < 0)
            cost = g->cost[i];
        else if (g->cost[i] != cost)
            return ff_error_set(err, FF_EINPUT, NULL, 0, 0,
                                "--any-angle: open cells cost %g and %g; the weighted case "
                                "is not supported yet (give every open cell one cost)",
                                (double)cost, (double)g->cost[i]);
    }
    return FF_OK;
}

/* The summed-area table of walls, (w+1)*(h+1). */
static void sum_walls(search *s)
{
    int64_t W = s->w + 1, x, y;

    memset(s->blocked_sum, 0, (size_t)W * sizeof *s->blocked_sum);
    for (y = 0; y < s->h; y++) {
        uint32_t row = 0;
        s->blocked_sum[(y + 1) * W] = 0;
        for (x = 0; x < s->w; x++) {
            row += !ff_grid_open(s->g, (size_t)y * (size_t)s->w + (size_t)x);
            s->blocked_sum[(y + 1) * W + x + 1] = s->blocked_sum[y * W + x + 1] + row;
        }
    }
}

/* Number the roots: the goals, then the turning corners in row order. */
static ff_status find_roots(search *s, ff_error *err)
{
    const ff_grid *g = s->g;
    int64_t W = s->w + 1, x, y;
    size_t n = g->ngoals, k;

    for (y = 0; y <= s->h; y++)
        for (x = 0; x <= s->w; x++) {
            int turn = turning_corner(g, x, y);
            s->vertex_root[y * W + x] = turn ? (uint32_t)n : NONE;
            n += (size_t)turn;
        }
    s->nroots = n;
    s->rx = malloc(n * sizeof *s->rx);
    s->ry = malloc(n * sizeof *s->ry);
    s->rd = malloc(n * sizeof *s->rd);
    if (!s->rx || !s->ry || !s->rd)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu corners", n);
    for (k = 0; k < g->ngoals; k++) {
        s->rx[k] = (uint32_t)(2 * (g->goals[k] % (size_t)s->w) + 1);
        s->ry[k] = (uint32_t)(2 * (g->goals[k] / (size_t)s->w) + 1);
        s->rd[k] = 0;
    }
    for (y = 0; y <= s->h; y++)
        for (x = 0; x <= s->w; x++) {
            uint32_t v = s->vertex_root[y * W + x];
            if (v == NONE)
                continue;
            s->rx[v] = (uint32_t)(2 * x);
            s->ry[v] = (uint32_t)(2 * y);
            s->rd[v] = INFINITY;
        }
    return FF_OK;
}

/* The unit vectors from each cell's centre toward its root. */
static void fill_toward(const search *s, float *toward)
{
    size_t n = (size_t)s->w * (size_t)s->h, i;

    for (i = 0; i < n; i++) {
        uint32_t r = s->root_of[i];
        double dx, dy, len;
        toward[2 * i] = toward[2 * i + 1] = 0.0f;
        if (r == NONE || !isfinite(s->dist[i]))
            continue;
        dx = (double)s->rx[r] - (double)(2 * (i % (size_t)s->w) + 1);
        dy = (double)s->ry[r] - (double)(2 * (i / (size_t)s->w) + 1);
        len = sqrt(dx * dx + dy * dy);
        if (len > 0) {
            toward[2 * i] = (float)(dx / len);
            toward[2 * i + 1] = (float)(dy / len);
        }
    }
}

ff_status ff_anyangle_search(const ff_grid *g, double *dist, float *toward, ff_error *err)
{
    size_t n = (size_t)g->w * (size_t)g->h, nv, i, k;
    ff_grid octile = *g;
    ff_status st;
    search s;

    if ((st = ff_anyangle_check(g, err)) != FF_OK)
        return st;
    /* The bounds: the 8-move field with the diagonal steps the free space
     * allows (past one wall's corner always; between two under cut and
     * free). */
    octile.moves = 8;
    octile.corners = g->corners == FF_CORNERS_STRICT ? FF_CORNERS_CUT : FF_CORNERS_FREE;
    if ((st = ff_search(&octile, dist, err)) != FF_OK)
        return st;
    memset(&s, 0, sizeof s);
    s.g = g;
    s.w = g->w;
    s.h = g->h;
    for (i = 0; i < n && !ff_grid_open(g, i); i++)
        ;
    s.scale = g->cell_size * (i < n ? (double)g->cost[i] : 1.0);
    s.slack = s.scale * (FF_SQRT2 + 1e-6);
    s.dist = dist;
    nv = ((size_t)g->w + 1) * ((size_t)g->h + 1);
    s.stamp = calloc(n, sizeof *s.stamp);
    s.flood = malloc(n * sizeof *s.flood);
    s.vertex_root = malloc(nv * sizeof *s.vertex_root);
    s.blocked_sum = malloc(nv * sizeof *s.blocked_sum);
    if (toward && (s.root_of = malloc(n * sizeof *s.root_of)) != NULL)
        for (i = 0; i < n; i++)
            s.root_of[i] = NONE;
    if (!s.stamp || !s.flood || !s.vertex_root || !s.blocked_sum || (toward && !s.root_of)) {
        st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu cells", n);
        goto done;
    }
    for (i = 0; i < n; i++)
        dist[i] = -dist[i];
    sum_walls(&s);
    if ((st = find_roots(&s, err)) != FF_OK)
        goto done;
    for (k = 0; k < g->ngoals && st == FF_OK; k++)
        if (heap_push(&s.roots, 0.0, (uint32_t)k) < 0)
            st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the goals");
    /* Dijkstra's algorithm over the roots; a stale entry (its root since
     * lowered, so already flooded) is skipped. */
    while (st == FF_OK && s.roots.n > 0) {
        heap_item top = heap_pop(&s.roots);
        if (top.key == s.rd[top.cell])
            st = flood_root(&s, top.cell, err);
    }
    if (st == FF_OK) {
        /* A cell no root offered anything is out of reach (its bound is
         * +inf: no 8-move path either). */
        for (i = 0; i < n; i++)
            if (signbit(dist[i]))
                dist[i] = INFINITY;
        if (toward)
            fill_toward(&s, toward);
    }
done:
    heap_free(&s.roots);
    free(s.stamp);
    free(s.flood);
    free(s.vertex_root);
    free(s.blocked_sum);
    free(s.root_of);
    free(s.rx);
    free(s.ry);
    free(s.rd);
    return st;
}
