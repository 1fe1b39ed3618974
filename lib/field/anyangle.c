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
 * (test_anyangle.c shows the margin is needed: without it the oracle tests
 * fail.)
 *
 * How much it costs.  A flood also keeps to the directions from its root
 * in which a sight line can go on through open cells: each flood cell
 * holds an interval of directions, its predecessor's cut to the cell's own
 * span, widened when another predecessor brings more (a superset of what
 * the root sees, since a sight line meets only open cells, each holding
 * its direction; near the root every direction).  So a root does not
 * flood the shadows of the walls round it.  A corner, moreover, floods
 * only the directions in which a shortest path through it can go on: the
 * wedge past its wall, beyond the straight line from its parent
 * (corner_wedge; a corner with none floods nothing).  The bounds start at
 * the 8-move field's distances (any 8-move path is a path of the free
 * space, under the corner rule that lets a diagonal step past one wall's
 * corner, or under cut and free between two), and fall as roots are
 * flooded, nearest first.  A flood steps out of a cell only the ways a
 * sight line from its root can go on: never back toward the root's side
 * of the cell when the whole cell lies on the other (a line along a grid
 * line may change sides, so a cell touching the root's row or column
 * steps both ways): 4.5 million steps on genmap's 1024 x 1024 map, not
 * 11.  A sight line test leaps across the open squares of the clearance
 * map (freesight.h): 17 million steps and leaps there, not 74 million
 * steps, for 1 byte a cell.  A cell's centre is
 * tried only once its direction is among the cell's (no sight line
 * reaches it before).  There the search takes 0.28 s of processor, and
 * ff_search 0.02 s (tests/bench/bench_anyangle.sh).
 *
 * Tried and dropped: a summed-area table of the walls, to pass a sight
 * line whose bounding box holds none without walking it (no time saved
 * on that map, 4 bytes a cell more); the leap's division replaced by a
 * floating estimate set right by products (slower); the flood's bound
 * compared in squares without a root, and the directions held in 32
 * bits (no time saved).
 */
#include "anyangle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "freesight.h"
#include "grow.h"
#include "minheap.h"
#include "search.h"
#include "turn.h"

#define NONE UINT32_MAX

typedef struct {
    const ff_grid *g;
    int64_t w, h;
    double scale;        /* world units per cell of length */
    double slack;        /* the flood's margin: sqrt(2) cells, and a hair */
    double *dist;        /* the caller's; a bound only while its sign bit
                            is set (-bound), a distance once offered */
    uint32_t *root_of;   /* NULL, or the best root of each cell */
    uint32_t *flood;     /* per cell: its place in the current flood, valid
                            when that place holds the cell (a sparse set:
                            nothing to clear between floods) */
    uint32_t *vertex_root; /* per grid vertex, (w+1) a row: its root or NONE */
    uint8_t *clear;      /* each cell's clearance (ff_free_clearance) */
    size_t nroots;
    uint32_t *rx, *ry;   /* each root's place in half cells */
    uint32_t *parent;    /* each corner's root before it on its best path */
    double *rd;          /* each root's best distance so far */
    heap roots;          /* roots by distance, stale entries skipped */
} search;

static double half_cells_apart(int64_t ax, int64_t ay, int64_t bx, int64_t by)
{
    double dx = (double)(ax - bx), dy = (double)(ay - by);
    return 0.5 * sqrt(dx * dx + dy * dy);
}

/* A direction from a root, in half cells. */
typedef struct {
    int64_t x, y;
} ray;

/* > 0 when b turns counterclockwise from a (x east, y south: clockwise
 * as drawn north up; only the sense matters), 0 when parallel. */
static int64_t turn(ray a, ray b)
{
    return a.x * b.y - a.y * b.x;
}

/* A cell of a root's flood: the directions from the root through which
 * the flood reaches it, [lo, hi] turning one way, or all of them near the
 * root; queued again when they widen after it was taken. */
typedef struct {
    ray lo, hi;
    uint32_t cell;
    uint8_t all;      /* near the root: every direction */
    uint8_t queued;   /* waiting in the queue */
    uint8_t centred;  /* its centre offered the root */
    uint8_t offered;  /* its corners offered the root */
} flood_cell_state;

typedef struct {
    int wedge;        /* 1: the root turns round one wall; its flood keeps
                         to the directions [wlo, whi] */
    ray wlo, whi;
    flood_cell_state *cell;
    size_t n, cap;
    uint32_t *queue;  /* indices into cell, a ring of cap entries */
    size_t head, count;
} flood_state;

static int flood_grow(flood_state *f)
{
    size_t cap = f->cap, k;
    flood_cell_state *c = ff_grow(f->cell, &cap, f->cap + 1, sizeof *c, 1024);
    uint32_t *q;

    if (!c)
        return -1;
    f->cell = c;
    if (!(q = malloc(cap * sizeof *q)))
        return -1;
    for (k = 0; k < f->count; k++)
        q[k] = f->queue[(f->head + k) % (f->cap ? f->cap : 1)];
    free(f->queue);
    f->queue = q;
    f->head = 0;
    f->cap = cap;
    return 0;
}

static void flood_enqueue(flood_state *f, uint32_t k)
{
    f->queue[(f->head + f->count++) % f->cap] = k;
    f->cell[k].queued = 1;
}

/* The directions from root (rx, ry) to the closed square of cell (x, y),
 * which lies in an open half-plane seen from the root. */
static void cell_span(int64_t rx, int64_t ry, int64_t x, int64_t y, ray *lo, ray *hi)
{
    *lo = *hi = (ray){ 2 * x - rx, 2 * y - ry };
    for (int k = 1; k < 4; k++) {
        ray c = { 2 * (x + (k & 1)) - rx, 2 * (y + (k >> 1)) - ry };
        if (turn(c, *lo) > 0)
            *lo = c;
        if (turn(*hi, c) > 0)
            *hi = c;
    }
}

/* Root r's flood reaches cell (x, y) from flood cell `from` (or from the
 * root itself when from is NONE): queue it, or widen its directions,
 * unless it is a wall, r cannot help there, or no direction leads there. */
static int flood_reach(search *s, flood_state *f, uint32_t r, uint32_t from, int64_t x, int64_t y)
{
    size_t i = (size_t)y * (size_t)s->w + (size_t)x;
    int64_t rx = s->rx[r], ry = s->ry[r], ox = 2 * x + 1 - rx, oy = 2 * y + 1 - ry;
    int near = (ox < 0 ? -ox : ox) <= 3 && (oy < 0 ? -oy : oy) <= 3;
    int all = near && !f->wedge;
    ray lo = f->wlo, hi = f->whi;
    int member = s->flood[i] < f->n && f->cell[s->flood[i]].cell == i;
    flood_cell_state *c;
    double key;

    if (!ff_grid_open(s->g, i) || (member && f->cell[s->flood[i]].all))
        return 0;
    /* A cell already flooded passed this bound, which only r's own offer
     * (its key) has lowered since. */
    if (!member) {
        key = s->rd[r] + s->scale * half_cells_apart(2 * x + 1, 2 * y + 1, rx, ry);
        if (key > fabs(s->dist[i]) + s->slack)
            return 0;
    }
    if (!near) {
        cell_span(rx, ry, x, y, &lo, &hi);
        if (from != NONE && !f->cell[from].all) {
            const flood_cell_state *p = &f->cell[from];
            if (turn(lo, p->lo) > 0)
                lo = p->lo;
            if (turn(p->hi, hi) > 0)
                hi = p->hi;
            if (turn(lo, hi) < 0)
                return 0;
        }
    }
    if (!member) {
        if (f->n == f->cap && flood_grow(f) < 0)
            return -1;
        s->flood[i] = (uint32_t)f->n;
        c = &f->cell[f->n];
        c->lo = lo;
        c->hi = hi;
        c->cell = (uint32_t)i;
        c->all = (uint8_t)all;
        c->centred = c->offered = 0;
        flood_enqueue(f, (uint32_t)f->n++);
        return 0;
    }
    c = &f->cell[s->flood[i]];
    if (turn(c->lo, lo) >= 0 && turn(hi, c->hi) >= 0)
        return 0;
    if (turn(lo, c->lo) > 0)
        c->lo = lo;
    if (turn(c->hi, hi) > 0)
        c->hi = hi;
    if (!c->queued) {
        if (f->count == f->cap && flood_grow(f) < 0)
            return -1;
        flood_enqueue(f, s->flood[i]);
    }
    return 0;
}

/* The directions in which a shortest path can leave corner r, which turns
 * round one wall: into *lo..*hi.  Returns 0 when it turns round none of
 * them (then r is the last corner of no shortest path), 1 with a wedge, 2
 * when every direction stays (a goal, a pinch point).
 *
 * A path from r's parent p through r to t is a shortest one only if it is
 * taut at r: the wall lies inside the turn, between the directions from r
 * to p and from r to t (within less than half a turn), or else a path
 * cutting the corner near r, in open cells, is shorter.  Since p is an
 * optimal parent of r, any target whose best root is r is reached through
 * such a turn, whichever optimal parent was recorded: the directions from
 * the wall's far edge round to the straight continuation of p->r. */
static int corner_wedge(const search *s, uint32_t r, ray *lo, ray *hi)
{
    int64_t vx = s->rx[r] / 2, vy = s->ry[r] / 2, bx = 0, by = 0, t;
    int walls = 0;
    ray a, e1, e2, u, far;

    if (r < s->g->ngoals)
        return 2;
    for (int k = 0; k < 4; k++) {
        int64_t cx = vx - 1 + (k & 1), cy = vy - 1 + (k >> 1);
        if (!ff_free_cell(s->g, cx, cy)) {
            walls++;
            bx = k & 1 ? 1 : -1;
            by = k >> 1 ? 1 : -1;
        }
    }
    if (walls != 1)
        return 2;
    a = (ray){ (int64_t)s->rx[s->parent[r]] - s->rx[r], (int64_t)s->ry[s->parent[r]] - s->ry[r] };
    u = (ray){ -a.x, -a.y };
    e1 = (ray){ bx, 0 };
    e2 = (ray){ 0, by };
    t = turn(a, (ray){ bx, by });
    if (t == 0)
        return 0;
    if (t > 0) {
        far = turn(e1, e2) > 0 ? e2 : e1;
        *lo = far;
        *hi = u;
    } else {
        far = turn(e1, e2) > 0 ? e1 : e2;
        *lo = u;
        *hi = far;
    }
    t = turn(*lo, *hi);
    return t > 0 || (t == 0 && lo->x * hi->x + lo->y * hi->y > 0);
}

/* Root r, its distance final: offer it to every cell and corner its flood
 * reaches.  The flood keeps to the directions in which the root's sight
 * can go on through open cells (a superset of where it sees: a sight line
 * meets only open cells, each holding its direction), to those in which a
 * shortest path can leave a corner (corner_wedge), and to where the root
 * can be within sqrt(2) of the best. */
static ff_status flood_root(search *s, flood_state *f, uint32_t r, ff_error *err)
{
    int64_t rx = s->rx[r], ry = s->ry[r];
    int fail = 0, wedge = corner_wedge(s, r, &f->wlo, &f->whi);

    if (wedge == 0)
        return FF_OK;
    f->wedge = wedge == 1;
    f->n = f->head = f->count = 0;
    if (rx & 1) {
        fail |= flood_reach(s, f, r, NONE, (rx - 1) / 2, (ry - 1) / 2);
    } else {
        for (int k = 0; k < 4; k++) {
            int64_t cx = rx / 2 - 1 + (k & 1), cy = ry / 2 - 1 + (k >> 1);
            if (ff_free_cell(s->g, cx, cy))
                fail |= flood_reach(s, f, r, NONE, cx, cy);
        }
    }
    while (!fail && f->count > 0) {
        uint32_t k = f->queue[f->head];
        uint32_t i = f->cell[k].cell;
        int64_t x = i % (size_t)s->w, y = i / (size_t)s->w, ox, oy;
        f->head = (f->head + 1) % f->cap;
        f->count--;
        f->cell[k].queued = 0;
        ox = 2 * x + 1 - rx;
        oy = 2 * y + 1 - ry;
        /* The centre, once its direction is among the cell's: until then
         * no sight line reaches it (and a widening queues the cell again). */
        if (!f->cell[k].centred &&
            (f->cell[k].all || (turn(f->cell[k].lo, (ray){ ox, oy }) >= 0 &&
                                turn((ray){ ox, oy }, f->cell[k].hi) >= 0))) {
            double key = s->rd[r] + s->scale * half_cells_apart(2 * x + 1, 2 * y + 1, rx, ry);
            double *dist = &s->dist[i];
            f->cell[k].centred = 1;
            if ((signbit(*dist) || key < *dist) &&
                ff_free_segment_leaping(s->g, s->clear, 2 * x + 1, 2 * y + 1, rx, ry)) {
                *dist = key;
                if (s->root_of)
                    s->root_of[i] = r;
            }
        }
        if (!f->cell[k].offered) {
            f->cell[k].offered = 1;
            /* A cell with no wall round it has no turning corner. */
            for (int c = s->clear[i] < 2 ? 0 : 4; c < 4; c++) {
                int64_t vx = x + (c & 1), vy = y + (c >> 1);
                uint32_t v = s->vertex_root[vy * (s->w + 1) + vx];
                double dv;
                if (v == NONE)
                    continue;
                dv = s->rd[r] + s->scale * half_cells_apart(2 * vx, 2 * vy, rx, ry);
                if (dv < s->rd[v] &&
                    ff_free_segment_leaping(s->g, s->clear, 2 * vx, 2 * vy, rx, ry)) {
                    s->rd[v] = dv;
                    s->parent[v] = r;
                    if (heap_push(&s->roots, dv, v) < 0)
                        fail = 1;
                }
            }
        }
        /* Only the steps a sight line from the root can take out of
         * this cell: none toward the root's side of it when the whole
         * cell lies on the other (a line along a grid line may still
         * change sides, so a cell touching the root's line allows both). */
        for (int d = 0; d < 8; d++) {
            int64_t dx = ff_dir_dx[d], dy = ff_dir_dy[d], nx = x + dx, ny = y + dy;
            if ((dx > 0 && ox + 1 < 0) || (dx < 0 && ox - 1 > 0) || (dy > 0 && oy + 1 < 0) ||
                (dy < 0 && oy - 1 > 0))
                continue;
            if (nx >= 0 && ny >= 0 && nx < s->w && ny < s->h)
                fail |= flood_reach(s, f, r, k, nx, ny) < 0;
        }
    }
    if (fail)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the any-angle flood");
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
    s->parent = malloc(n * sizeof *s->parent);
    if (!s->rx || !s->ry || !s->rd || !s->parent)
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

/* Release what a search holds (run_search). */
static void search_free(search *s)
{
    heap_free(&s->roots);
    free(s->flood);
    free(s->clear);
    free(s->vertex_root);
    free(s->root_of);
    free(s->rx);
    free(s->ry);
    free(s->rd);
    free(s->parent);
}

/* The search of g into dist; with keep_roots, s->root_of too.  On return
 * s holds the roots (and root_of) for the caller, who calls search_free,
 * failed or not. */
static ff_status run_search(const ff_grid *g, double *dist, int keep_roots, search *s,
                            ff_error *err)
{
    size_t n = (size_t)g->w * (size_t)g->h, nv, i, k;
    ff_grid octile = *g;
    flood_state f = { 0, { 0, 0 }, { 0, 0 }, NULL, 0, 0, NULL, 0, 0 };
    ff_status st;

    memset(s, 0, sizeof *s);
    if ((st = ff_anyangle_check(g, err)) != FF_OK)
        return st;
    /* The bounds: the 8-move field with the diagonal steps the free space
     * allows (past one wall's corner always; between two under cut and
     * free). */
    octile.moves = 8;
    octile.corners = g->corners == FF_CORNERS_STRICT ? FF_CORNERS_CUT : FF_CORNERS_FREE;
    if ((st = ff_search(&octile, dist, err)) != FF_OK)
        return st;
    s->g = g;
    s->w = g->w;
    s->h = g->h;
    for (i = 0; i < n && !ff_grid_open(g, i); i++)
        ;
    s->scale = g->cell_size * (i < n ? (double)g->cost[i] : 1.0);
    s->slack = s->scale * (FF_SQRT2 + 1e-6);
    s->dist = dist;
    nv = ((size_t)g->w + 1) * ((size_t)g->h + 1);
    /* Any values will do (flood_reach checks them); zeroed, they are
     * defined for the checkers. */
    s->flood = calloc(n, sizeof *s->flood);
    s->vertex_root = malloc(nv * sizeof *s->vertex_root);
    s->clear = malloc(n ? n : 1);
    if (keep_roots && (s->root_of = malloc(n * sizeof *s->root_of)) != NULL)
        for (i = 0; i < n; i++)
            s->root_of[i] = NONE;
    if (!s->flood || !s->vertex_root || !s->clear || (keep_roots && !s->root_of))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu cells", n);
    ff_free_clearance(g, s->clear);
    for (i = 0; i < n; i++)
        dist[i] = -dist[i];
    if ((st = find_roots(s, err)) != FF_OK)
        return st;
    for (k = 0; k < g->ngoals && st == FF_OK; k++)
        if (heap_push(&s->roots, 0.0, (uint32_t)k) < 0)
            st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the goals");
    /* Dijkstra's algorithm over the roots; a stale entry (its root since
     * lowered, so already flooded) is skipped. */
    while (st == FF_OK && s->roots.n > 0) {
        heap_item top = heap_pop(&s->roots);
        if (top.key == s->rd[top.cell])
            st = flood_root(s, &f, top.cell, err);
    }
    free(f.cell);
    free(f.queue);
    if (st != FF_OK)
        return st;
    /* A cell no root offered anything is out of reach (its bound is +inf:
     * no 8-move path either). */
    for (i = 0; i < n; i++)
        if (signbit(dist[i]))
            dist[i] = INFINITY;
    return FF_OK;
}

ff_status ff_anyangle_search(const ff_grid *g, double *dist, float *toward, ff_error *err)
{
    search s;
    ff_status st = run_search(g, dist, toward != NULL, &s, err);

    if (st == FF_OK && toward)
        fill_toward(&s, toward);
    search_free(&s);
    return st;
}

/* The search of g again, into a buffer of its own, with the roots kept in
 * s: FF_EINPUT unless its distances are dist bit for bit.  The caller
 * calls search_free(s). */
static ff_status search_again(const ff_grid *g, const double *dist, search *s, ff_error *err)
{
    size_t n = (size_t)g->w * (size_t)g->h;
    double *again = malloc((n ? n : 1) * sizeof *again);
    ff_status st;

    memset(s, 0, sizeof *s);
    if (!again)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu cells", n);
    st = run_search(g, again, 1, s, err);
    if (st == FF_OK && memcmp(again, dist, n * sizeof *again) != 0)
        st = ff_error_set(err, FF_EINPUT, NULL, 0, 0,
                          "the distances are not the any-angle distances of the map: "
                          "rebuild the field with ffbuild --any-angle");
    free(again);
    s->dist = NULL;
    return st;
}

ff_status ff_anyangle_directions(const ff_grid *g, const double *dist, float *toward,
                                 ff_error *err)
{
    search s;
    ff_status st = search_again(g, dist, &s, err);

    if (st == FF_OK) {
        s.dist = (double *)dist;  /* fill_toward only reads it */
        fill_toward(&s, toward);
    }
    search_free(&s);
    return st;
}

int ff_anyangle_code(double dist, float vx, float vy)
{
    if (!isfinite(dist))
        return FF_DIR_NONE;
    return vx == 0 && vy == 0 ? FF_DIR_GOAL : ff_heading_nearest(vx, vy);
}

ff_status ff_anyangle_corner_path(const ff_grid *g, const double *dist, long long x, long long y,
                                  double **xy, size_t *n, ff_error *err)
{
    size_t i, k = 0;
    uint32_t r;
    search s;
    ff_status st;

    *xy = NULL;
    *n = 0;
    if (x < 0 || y < 0 || x >= g->w || y >= g->h)
        return ff_error_set(err, FF_EUSAGE, NULL, 0, 0, "cell %lld,%lld is outside the map", x, y);
    i = (size_t)y * (size_t)g->w + (size_t)x;
    if (!isfinite(dist[i]))
        return ff_error_set(err, FF_ENOTFOUND, NULL, 0, 0, "cell %lld,%lld %s", x, y,
                            ff_grid_open(g, i) ? "cannot reach a goal" : "is blocked");
    if ((st = search_again(g, dist, &s, err)) != FF_OK) {
        search_free(&s);
        return st;
    }
    /* The start's centre, then each root back along the parents: a
     * corner's parent lies nearer a goal, so at most every root once. */
    if (!(*xy = malloc(2 * (s.nroots + 1) * sizeof **xy))) {
        search_free(&s);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the path");
    }
    (*xy)[k++] = (double)x + 0.5;
    (*xy)[k++] = (double)y + 0.5;
    for (r = dist[i] > 0 ? s.root_of[i] : NONE; r != NONE && k < 2 * (s.nroots + 1);
         r = r < g->ngoals ? NONE : s.parent[r]) {
        (*xy)[k++] = 0.5 * s.rx[r];
        (*xy)[k++] = 0.5 * s.ry[r];
    }
    for (i = 0; i < k; i += 2) {
        (*xy)[i] = g->origin_x + g->cell_size * (*xy)[i];
        (*xy)[i + 1] = g->origin_y + g->cell_size * (*xy)[i + 1];
    }
    *n = k / 2;
    search_free(&s);
    return FF_OK;
}
