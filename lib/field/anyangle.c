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
 * follow one another across shared edges (or, under cut and free, through
 * pinch points), from a cell touching r to one touching t, and for each
 * such cell m, with q a point of S in it, the true distance D(m) >= D(q) -
 * |centre(m) - q| (the square is convex and free) while d(r) + |centre(m)
 * - r| <= D(q) + |centre(m) - q|, each |centre(m) - q| at most sqrt(2)/2.
 * So r's flood, which goes on from a cell to those neighbours as long as
 * d(r) + |centre - r| is at most the best distance known there plus
 * sqrt(2) (a bound never below the true one), reaches every cell S meets
 * and offers t its true distance.
 * (test_anyangle.c shows the margin is needed: without it the oracle tests
 * fail.)
 *
 * Which cells a root sees.  A flood cell m holds V(m), the directions from
 * the root in which a sight line reaches m's closed square through the
 * free space.  Such a line, just before it first touches m, is in a cell
 * p whose square it has crossed to the edge p shares with m, or, under
 * cut and free, at a pinch point m shares with its diagonal neighbour p;
 * the other way round, a direction of V(p) that meets that shared edge
 * (or points at that pinch point) reaches m.  So V(m) is the union over
 * those p of V(p) cut to the shared edge's directions (under strict a
 * line through a pinch point touches two walls' corner and is no sight
 * line), and the root's own cells hold the directions into them.  The
 * flood keeps this union as one interval, exact as long as every piece
 * it joined overlapped the others (an obstacle smaller, as seen from
 * the root, than the cell behind it would split it: then the interval is
 * their hull, and a sight line test, freesight.h, decides).  A centre or
 * corner of m is seen exactly when its direction is in V(m): inside the
 * closed square the rest of the segment is free.  So no sight line is
 * walked on genmap's maps, and a root floods no cell it does not see.
 *
 * How much it costs.  A corner, moreover, floods only the directions in
 * which a shortest path through it can go on: the wedge past its wall,
 * beyond the straight line from its parent (corner_wedge; a corner with
 * none floods nothing).  The bounds start at +inf and fall as roots are
 * flooded, nearest first; since a root floods only what it sees and the
 * nearest roots come first, the floods overlap little even so.  A flood
 * crosses an edge only the way a sight line from its root can (never
 * toward the root's side of the cell when the whole cell lies on the
 * other; a line along a grid line may change sides, so a cell touching
 * the root's row or column crosses both ways), so it goes out from the
 * root two rows at a time, and takes the cells of the same two rows one
 * after another; it looks its cells up in a window of four rows, not in
 * an array of the map's size.  Besides the distances the search reads
 * one byte a cell (open, a turning corner among its corners) and a bit a
 * grid vertex (a turning corner; its root is found by counting bits);
 * the clearance map is made only if a sight line is walked.  No 8-move
 * search runs first.  On genmap's
 * 1024 x 1024 map each open cell is taken by 1.5 floods.
 *
 * Ties.  Where two roots give a cell (or a corner) the same distance, the
 * one nearer a goal, then the first (goals, then corners in row order),
 * is its root (its parent), whatever order the floods take.
 *
 * Tried and dropped: a summed-area table of the walls, to pass a sight
 * line whose bounding box holds none without walking it (no time saved
 * on that map, 4 bytes a cell more); the leap's division replaced by a
 * floating estimate set right by products (slower); the flood's bound
 * compared in squares without a root, and the directions held in 32
 * bits (no time saved); the bounds seeded with the 8-move field's
 * distances (any 8-move path under the corner rule cut, or free, is a
 * path of the free space): the same floods within a few per cent, for the
 * cost of an 8-move search (on the 4096 map 1.08 s without, 1.3-1.5 s
 * with).  Before the flood held exact directions, each
 * cell held its predecessors' directions cut to its own square, and a
 * sight line was walked for each centre and corner: 0.28 s there.
 */
#include "anyangle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "freesight.h"
#include "grow.h"
#include "minheap.h"
#include "turn.h"

#define NONE UINT32_MAX

/* Ask for memory soon to be read (a hint; nothing where the compiler has
 * no such builtin). */
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

/* How many cells ahead in its queue a flood asks for the next row's
 * distances and flags. */
#define AHEAD 8

/* A cell's flags: open; one of its four corners a turning corner; a root
 * offered (its distance no longer a bound). */
enum { CELL_OPEN = 1, CELL_CORNER = 2, CELL_SET = 4 };

typedef struct {
    const ff_grid *g;
    int64_t w, h;
    double scale;        /* world units per cell of length */
    double slack;        /* the flood's margin: sqrt(2) cells, and a hair */
    double *dist;        /* the caller's: +inf until a root is offered
                            (CELL_SET), then the best distance offered */
    uint32_t *root_of;   /* NULL, or the best root of each cell */
    uint32_t *window;    /* 4 rows of w: a flood cell's place in the current
                            flood, for the cells of the flood's rows being
                            taken and the next two (flood_slot), valid when
                            that place holds the cell (a sparse set:
                            nothing to clear between rows or floods) */
    uint8_t *cellf;      /* each cell's CELL_ flags */
    uint64_t *corner_bits; /* a bit per grid vertex, (w+1) a row: 1 for a
                            turning corner (corner_root) */
    uint32_t *corner_rank; /* per word of corner_bits: the turning corners
                            before it */
    uint8_t *clear;      /* each cell's clearance (ff_free_clearance), made
                            when a sight line is first walked (clearance) */
    size_t nroots;
    uint32_t *rx, *ry;   /* each root's place in half cells */
    uint32_t *parent;    /* each corner's root before it on its best path */
    uint8_t *open_round; /* each corner's four cells: bit k set when the
                            cell (x - 1 + (k & 1), y - 1 + (k >> 1)) is open */
    double *rd;          /* each root's best distance so far */
    heap roots;          /* roots by distance, stale entries skipped */
} search;

/* The number of bits set in v. */
static unsigned bits_set(uint64_t v)
{
    v -= (v >> 1) & 0x5555555555555555u;
    v = (v & 0x3333333333333333u) + ((v >> 2) & 0x3333333333333333u);
    v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return (unsigned)((v * 0x0101010101010101u) >> 56);
}

/* The root of grid vertex j (y * (w+1) + x), or NONE when it is no
 * turning corner: the goals, then the turning corners in row order. */
static uint32_t corner_root(const search *s, size_t j)
{
    uint64_t word = s->corner_bits[j >> 6], below = ((uint64_t)1 << (j & 63)) - 1;

    if (!((word >> (j & 63)) & 1))
        return NONE;
    return (uint32_t)(s->g->ngoals + s->corner_rank[j >> 6] + bits_set(word & below));
}

/* The clearance map for a sight line walk, made the first time (NULL
 * when out of memory: the walk then steps cell by cell, with the same
 * answer). */
static const uint8_t *clearance(search *s)
{
    size_t n = (size_t)s->w * (size_t)s->h;

    if (!s->clear && (s->clear = malloc(n ? n : 1)) != NULL)
        ff_free_clearance(s->g, s->clear);
    return s->clear;
}

static double half_cells_apart(int64_t ax, int64_t ay, int64_t bx, int64_t by)
{
    double dx = (double)(ax - bx), dy = (double)(ay - by);
    return 0.5 * sqrt(dx * dx + dy * dy);
}

/* A direction from a root, in half cells (a map is at most 2^29 cells a
 * side: ff_anyangle_check). */
typedef struct {
    int32_t x, y;
} ray;

/* > 0 when b turns counterclockwise from a (x east, y south: clockwise
 * as drawn north up; only the sense matters), 0 when parallel. */
static int64_t turn(ray a, ray b)
{
    return (int64_t)a.x * b.y - (int64_t)a.y * b.x;
}

/* A cell of a root's flood: the directions from the root in which a sight
 * line reaches the cell's closed square through the free space, [lo, hi]
 * turning one way (the root's own cell: all of them); exact unless two
 * separate pieces were joined, when [lo, hi] is their hull.  Queued again
 * when they widen after it was taken. */
typedef struct {
    ray lo, hi;
    double key;       /* the root's distance plus its length to the centre */
    int32_t x, y;
    uint8_t all;      /* the root's own cell: every direction */
    uint8_t exact;    /* [lo, hi] is the set itself, not a hull */
    uint8_t queued;   /* waiting in the queue */
    uint8_t centred;  /* its centre offered the root */
    uint8_t offered;  /* a bit for each corner offered the root */
} flood_cell_state;

/* A queue of flood cells (indices into flood_state's cell). */
typedef struct {
    uint32_t *k;
    size_t n, cap;
} flood_queue;

typedef struct {
    uint32_t root;    /* the root flooding, at (rx, ry) in half cells */
    int64_t rx, ry;
    double root_dist; /* its distance */
    int wedge;        /* 1: the root turns round one wall; its flood keeps
                         to the directions [wlo, whi] */
    ray wlo, whi;
    flood_cell_state *cell;
    size_t n, cap;
    /* The flood goes out from the root two rows at a time, the rows whose
     * centres are `row` half cells above and below the root's (`now`,
     * taken from `head` on), then the next two (`later`): a flood crosses
     * no edge toward the root's row, so none of its steps goes back, and
     * the cells it takes one after another lie in the same two rows. */
    flood_queue now, later;
    size_t head;
    int64_t row;
} flood_state;

static int flood_grow(flood_state *f)
{
    flood_cell_state *c = ff_grow(f->cell, &f->cap, f->n + 1, sizeof *c, 1024);

    if (!c)
        return -1;
    f->cell = c;
    return 0;
}

/* Queue flood cell k, whose centre lies oy half cells below the root's. */
static int queue_grow(flood_queue *q)
{
    uint32_t *grown = ff_grow(q->k, &q->cap, q->n + 1, sizeof *q->k, 1024);

    if (!grown)
        return -1;
    q->k = grown;
    return 0;
}

static inline int flood_enqueue(flood_state *f, uint32_t k, int64_t oy)
{
    flood_queue *q = (oy < 0 ? -oy : oy) == f->row ? &f->now : &f->later;

    if (q->n == q->cap && queue_grow(q) < 0)
        return -1;
    q->k[q->n++] = k;
    f->cell[k].queued = 1;
    return 0;
}

/* 1 when direction d lies in [lo, hi], all three within less than half a
 * turn of one another. */
static int within(ray lo, ray d, ray hi)
{
    return turn(lo, d) >= 0 && turn(d, hi) >= 0;
}

/* 1 when direction d lies in [lo, hi], an interval of less than half a
 * turn, wherever d points. */
static int within_any(ray lo, ray d, ray hi)
{
    return within(lo, d, hi) && (lo.x * d.x + lo.y * d.y > 0 || d.x * hi.x + d.y * hi.y > 0);
}

/* Where the flood of root r keeps its place for cell (x, y): a flood
 * looks up only the cells of the two rows being taken and of the next two
 * (flood_state), each pair in the window's rows 0 and 1 or 2 and 3 by
 * turns, above the root's centre or below. */
static uint32_t *flood_slot(const search *s, const flood_state *f, int64_t x, int64_t y)
{
    int64_t oy = 2 * y + 1 - f->ry, row = oy < 0 ? -oy : oy;

    return &s->window[(size_t)(((row >> 1) & 1) * 2 + (oy < 0)) * (size_t)s->w + (size_t)x];
}

/* Root r's flood reaches cell (x, y) along the directions [lo, hi] (exact
 * when `exact`): queue it, or widen its directions, unless it is a wall
 * or r cannot help there (its distance more than the slack above the
 * cell's bound). */
static inline int flood_reach(search *s, flood_state *f, int64_t x, int64_t y, ray lo, ray hi,
                              int exact, int all)
{
    size_t i = (size_t)y * (size_t)s->w + (size_t)x;
    uint32_t *slot, k;
    flood_cell_state *c;

    if (!(s->cellf[i] & CELL_OPEN))
        return 0;
    slot = flood_slot(s, f, x, y);
    k = *slot;
    if (k >= f->n || f->cell[k].x != x || f->cell[k].y != y) {
        /* A cell already flooded passed this bound, which only r's own
         * offer (its key) has lowered since. */
        double key = f->root_dist + s->scale * half_cells_apart(2 * x + 1, 2 * y + 1, f->rx, f->ry);
        if (key > s->dist[i] + s->slack)
            return 0;
        if (f->n == f->cap && flood_grow(f) < 0)
            return -1;
        *slot = (uint32_t)f->n;
        c = &f->cell[f->n];
        c->lo = lo;
        c->hi = hi;
        c->key = key;
        c->x = (int32_t)x;
        c->y = (int32_t)y;
        c->all = (uint8_t)all;
        c->exact = (uint8_t)exact;
        c->centred = c->offered = 0;
        return flood_enqueue(f, (uint32_t)f->n++, 2 * y + 1 - f->ry);
    }
    c = &f->cell[k];
    if (c->all || (turn(c->lo, lo) >= 0 && turn(hi, c->hi) >= 0))
        return 0;
    /* Two overlapping intervals join into one; else keep their hull. */
    if (!exact || turn(c->lo, hi) < 0 || turn(lo, c->hi) < 0)
        c->exact = 0;
    if (turn(lo, c->lo) > 0)
        c->lo = lo;
    if (turn(c->hi, hi) > 0)
        c->hi = hi;
    return c->queued ? 0 : flood_enqueue(f, k, 2 * y + 1 - f->ry);
}

/* The flood steps from cell c into its neighbour (x, y) across the unit
 * edge whose ends lie in the directions lo and hi from the root (hi
 * turned from lo as turn() counts, or the two parallel), along the
 * directions of c's that cross that edge. */
static inline int flood_cross(search *s, flood_state *f, const flood_cell_state *c, int64_t x,
                              int64_t y, ray lo, ray hi)
{
    /* An edge ending at the root: its far end. */
    if (lo.x == 0 && lo.y == 0)
        lo = hi;
    else if (hi.x == 0 && hi.y == 0)
        hi = lo;
    if (!c->all) {
        if (turn(lo, c->lo) > 0)
            lo = c->lo;
        if (turn(c->hi, hi) > 0)
            hi = c->hi;
        if (turn(lo, hi) < 0)
            return 0;
    }
    return flood_reach(s, f, x, y, lo, hi, c->exact, 0);
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
    int32_t bx, by;
    int64_t t;
    ray a, e1, e2, u, far;

    if (r < s->g->ngoals || bits_set(s->open_round[r]) != 3)
        return 2;
    /* The one wall, k = 0..3, and the way it lies from the corner. */
    bx = (~s->open_round[r] & 10) ? 1 : -1;
    by = (~s->open_round[r] & 12) ? 1 : -1;
    a = (ray){ (int32_t)((int64_t)s->rx[s->parent[r]] - s->rx[r]),
               (int32_t)((int64_t)s->ry[s->parent[r]] - s->ry[r]) };
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

/* 1 when root r goes before root `than` (or NONE) as the next vertex of a
 * path, the two paths being as long: the nearer a goal, then the first
 * (goals, then corners in row order); so ties are settled the same
 * whatever order the floods take. */
static int goes_before(const search *s, uint32_t r, uint32_t than)
{
    return than == NONE || s->rd[r] < s->rd[than] || (s->rd[r] == s->rd[than] && r < than);
}

/* The first cells of root r's flood: the root's own cell (a goal's), or
 * the open cells round its corner, each with the quarter of directions
 * into it, cut to the wedge. */
static int flood_start(search *s, flood_state *f, uint32_t r)
{
    int64_t rx = s->rx[r], ry = s->ry[r];
    int fail = 0;

    if (rx & 1)
        return flood_reach(s, f, (rx - 1) / 2, (ry - 1) / 2, (ray){ 0, 0 }, (ray){ 0, 0 }, 1, 1);
    for (int k = 0; k < 4; k++) {
        int32_t bx = k & 1 ? 1 : -1, by = k >> 1 ? 1 : -1;
        ray lo = { bx, 0 }, hi = { 0, by };
        if (!(s->open_round[r] >> k & 1))
            continue;
        if (bx * by < 0) {
            lo = (ray){ 0, by };
            hi = (ray){ bx, 0 };
        }
        if (f->wedge) {
            /* Two intervals of less than half a turn meet in one, which
             * starts at the start of one and ends at the end of one. */
            ray l = f->wlo, h = f->whi;
            if (within_any(f->wlo, lo, f->whi))
                l = lo;
            else if (!within_any(lo, f->wlo, hi))
                continue;
            if (within_any(f->wlo, hi, f->whi))
                h = hi;
            else if (!within_any(lo, f->whi, hi))
                continue;
            lo = l;
            hi = h;
        }
        fail |= flood_reach(s, f, rx / 2 + (bx - 1) / 2, ry / 2 + (by - 1) / 2, lo, hi, 1, 0);
    }
    return fail;
}

/* Root r, its distance final: offer it to every cell and corner it sees
 * where it can be within sqrt(2) of the best, and to no other.  The
 * flood holds in each cell the directions in which the root sees into
 * it (a sight line enters a cell across an edge from a cell it has
 * crossed, or, under cut and free, through a pinch point), so that a
 * centre or corner among them is seen; only where two pieces were joined
 * does a sight line test decide.  It keeps to the directions in which a
 * shortest path can leave a corner (corner_wedge). */
static ff_status flood_root(search *s, flood_state *f, uint32_t r, ff_error *err)
{
    int64_t rx = s->rx[r], ry = s->ry[r];
    int fail = 0, wedge = corner_wedge(s, r, &f->wlo, &f->whi);
    int strict = s->g->corners == FF_CORNERS_STRICT;

    if (wedge == 0)
        return FF_OK;
    f->wedge = wedge == 1;
    f->root = r;
    f->rx = rx;
    f->ry = ry;
    f->root_dist = s->rd[r];
    f->n = f->head = f->now.n = f->later.n = 0;
    f->row = ry & 1 ? 0 : 1;
    fail = flood_start(s, f, r);
    while (!fail) {
        uint32_t k;
        flood_cell_state c;
        if (f->head == f->now.n) {
            flood_queue next = f->later;
            if (next.n == 0)
                break;
            f->later = f->now;
            f->later.n = 0;
            f->now = next;
            f->head = 0;
            f->row += 2;
        }
        if (f->head + AHEAD < f->now.n) {
            /* The cell the flood will step into from a cell ahead, away
             * from the root's row. */
            const flood_cell_state *ahead = &f->cell[f->now.k[f->head + AHEAD]];
            int64_t step = 2 * (int64_t)ahead->y + 1 < ry ? -1 : 1;
            if (ahead->y + step >= 0 && ahead->y + step < s->h) {
                size_t j = (size_t)((ahead->y + step) * s->w + ahead->x);
                PREFETCH(&s->dist[j]);
                PREFETCH(&s->cellf[j]);
            }
        }
        k = f->now.k[f->head++];
        c = f->cell[k];
        int64_t x = c.x, y = c.y;
        size_t i = (size_t)y * (size_t)s->w + (size_t)x;
        ray o = { (int32_t)(2 * x + 1 - rx), (int32_t)(2 * y + 1 - ry) };
        /* The directions of the cell's corners. */
        ray nw = { o.x - 1, o.y - 1 }, ne = { o.x + 1, o.y - 1 };
        ray sw = { o.x - 1, o.y + 1 }, se = { o.x + 1, o.y + 1 };
        f->cell[k].queued = 0;
        /* The centre, once its direction is among the cell's (a widening
         * queues the cell again). */
        if (!c.centred && (c.all || within(c.lo, o, c.hi))) {
            double *dist = &s->dist[i];
            f->cell[k].centred = 1;
            if ((!(s->cellf[i] & CELL_SET) || c.key < *dist ||
                 (c.key == *dist && s->root_of && goes_before(s, r, s->root_of[i]))) &&
                (c.exact ||
                 ff_free_segment_leaping(s->g, clearance(s), o.x + rx, o.y + ry, rx, ry))) {
                *dist = c.key;
                s->cellf[i] |= CELL_SET;
                if (s->root_of)
                    s->root_of[i] = r;
            }
        }
        /* The turning corners of the cell (none without a wall round it). */
        for (int b = s->cellf[i] & CELL_CORNER ? 0 : 4; b < 4; b++) {
            int64_t vx = x + (b & 1), vy = y + (b >> 1);
            ray ov = { (int32_t)(2 * vx - rx), (int32_t)(2 * vy - ry) };
            uint32_t v;
            double dv;
            if (c.offered & (1u << b))
                continue;
            v = corner_root(s, (size_t)vy * (size_t)(s->w + 1) + (size_t)vx);
            if (v == NONE || (ov.x == 0 && ov.y == 0)) {
                f->cell[k].offered |= (uint8_t)(1u << b);
                continue;
            }
            if (!c.all && !within(c.lo, ov, c.hi))
                continue;
            f->cell[k].offered |= (uint8_t)(1u << b);
            dv = s->rd[r] + s->scale * half_cells_apart(2 * vx, 2 * vy, rx, ry);
            if ((dv < s->rd[v] || (dv == s->rd[v] && goes_before(s, r, s->parent[v]))) &&
                (c.exact || ff_free_segment_leaping(s->g, clearance(s), 2 * vx, 2 * vy, rx, ry))) {
                s->parent[v] = r;
                if (dv < s->rd[v]) {
                    s->rd[v] = dv;
                    fail |= heap_push(&s->roots, dv, v) < 0;
                }
            }
        }
        /* Across each edge a sight line from the root can cross out of
         * this cell: not toward the root's side of it when the whole cell
         * lies on the other (a line along a grid line may still change
         * sides, so a cell touching the root's line crosses both ways). */
        /* (turn(ne, se) = 2 (o.x + 1), turn(sw, nw) = -2 (o.x - 1),
         * turn(se, sw) = 2 (o.y + 1), turn(nw, ne) = -2 (o.y - 1).) */
        if (x + 1 < s->w && o.x + 1 >= 0)
            fail |= flood_cross(s, f, &c, x + 1, y, ne, se);
        if (x > 0 && o.x - 1 <= 0)
            fail |= flood_cross(s, f, &c, x - 1, y, sw, nw);
        if (y + 1 < s->h && o.y + 1 >= 0)
            fail |= flood_cross(s, f, &c, x, y + 1, se, sw);
        if (y > 0 && o.y - 1 <= 0)
            fail |= flood_cross(s, f, &c, x, y - 1, nw, ne);
        /* Under cut and free, through a corner where two walls touch. */
        for (int d = 0; !strict && d < 4; d++) {
            int64_t dx = d & 1 ? 1 : -1, dy = d >> 1 ? 1 : -1;
            ray ow = { (int32_t)(o.x + dx), (int32_t)(o.y + dy) };
            if ((dx > 0 && o.x + 1 < 0) || (dx < 0 && o.x - 1 > 0) || (dy > 0 && o.y + 1 < 0) ||
                (dy < 0 && o.y - 1 > 0) || ff_free_cell(s->g, x + dx, y) ||
                ff_free_cell(s->g, x, y + dy) || !ff_free_cell(s->g, x + dx, y + dy) ||
                (ow.x == 0 && ow.y == 0) || !(c.all || within(c.lo, ow, c.hi)))
                continue;
            fail |= flood_reach(s, f, x + dx, y + dy, ow, ow, c.exact, 0);
        }
    }
    if (fail)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the any-angle flood");
    return FF_OK;
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
    if (((uint64_t)g->w + 1) * ((uint64_t)g->h + 1) >= NONE || g->w > (1 << 29) || g->h > (1 << 29))
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

/* The cells' flags and distances (+inf), and the roots numbered: the
 * goals, then the turning corners in row order.  A turning corner is a
 * grid vertex inside the map with one wall among its four cells, or
 * under cut and free two walls touching there. */
static ff_status find_roots(search *s, ff_error *err)
{
    const ff_grid *g = s->g;
    size_t w = (size_t)s->w, W = w + 1, nv = W * ((size_t)s->h + 1), words = nv / 64 + 1;
    size_t n = 0, i, j, k, x, y;
    int strict = g->corners == FF_CORNERS_STRICT;

    s->corner_bits = calloc(words, sizeof *s->corner_bits);
    s->corner_rank = malloc(words * sizeof *s->corner_rank);
    if (!s->corner_bits || !s->corner_rank)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu vertices", nv);
    for (i = 0; i < w * (size_t)s->h; i++) {
        s->cellf[i] = ff_grid_open(g, i) ? CELL_OPEN : 0;
        s->dist[i] = INFINITY;
    }
    for (y = 1; y < (size_t)s->h; y++) {
        uint8_t *up = s->cellf + (y - 1) * w, *down = s->cellf + y * w;
        for (x = 1; x < w; x++) {
            int nw = up[x - 1] & CELL_OPEN, ne = up[x] & CELL_OPEN;
            int sw = down[x - 1] & CELL_OPEN, se = down[x] & CELL_OPEN;
            if (nw + ne + sw + se == 3 || (!strict && nw + ne + sw + se == 2 && nw == se)) {
                j = y * W + x;
                s->corner_bits[j >> 6] |= (uint64_t)1 << (j & 63);
                up[x - 1] |= CELL_CORNER;
                up[x] |= CELL_CORNER;
                down[x - 1] |= CELL_CORNER;
                down[x] |= CELL_CORNER;
            }
        }
    }
    for (k = 0; k < words; k++) {
        s->corner_rank[k] = (uint32_t)n;
        n += bits_set(s->corner_bits[k]);
    }
    n += g->ngoals;
    s->nroots = n;
    s->rx = malloc(n * sizeof *s->rx);
    s->ry = malloc(n * sizeof *s->ry);
    s->rd = malloc(n * sizeof *s->rd);
    s->parent = malloc(n * sizeof *s->parent);
    s->open_round = malloc(n);
    if (!s->rx || !s->ry || !s->rd || !s->parent || !s->open_round)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu corners", n);
    for (k = 0; k < g->ngoals; k++) {
        s->rx[k] = (uint32_t)(2 * (g->goals[k] % w) + 1);
        s->ry[k] = (uint32_t)(2 * (g->goals[k] / w) + 1);
        s->rd[k] = 0;
    }
    /* Each word's corners, lowest bit first. */
    for (k = 0, i = g->ngoals; k < words; k++)
        for (uint64_t word = s->corner_bits[k]; word; word &= word - 1, i++) {
            j = 64 * k + bits_set((word & (~word + 1)) - 1);
            x = j % W;
            y = j / W;
            s->rx[i] = (uint32_t)(2 * x);
            s->ry[i] = (uint32_t)(2 * y);
            s->rd[i] = INFINITY;
            s->open_round[i] = 0;
            for (int c = 0; c < 4; c++)
                if (s->cellf[(y - 1 + (size_t)(c >> 1)) * w + x - 1 + (size_t)(c & 1)] & CELL_OPEN)
                    s->open_round[i] |= (uint8_t)(1u << c);
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
    free(s->window);
    free(s->clear);
    free(s->cellf);
    free(s->corner_bits);
    free(s->corner_rank);
    free(s->root_of);
    free(s->rx);
    free(s->ry);
    free(s->rd);
    free(s->parent);
    free(s->open_round);
}

/* The search of g into dist; with keep_roots, s->root_of too.  On return
 * s holds the roots (and root_of) for the caller, who calls search_free,
 * failed or not. */
static ff_status run_search(const ff_grid *g, double *dist, int keep_roots, search *s,
                            ff_error *err)
{
    size_t n = (size_t)g->w * (size_t)g->h, i, k;
    flood_state f;
    ff_status st;

    memset(s, 0, sizeof *s);
    memset(&f, 0, sizeof f);
    if ((st = ff_anyangle_check(g, err)) != FF_OK)
        return st;
    s->g = g;
    s->w = g->w;
    s->h = g->h;
    for (i = 0; i < n && !ff_grid_open(g, i); i++)
        ;
    s->scale = g->cell_size * (i < n ? (double)g->cost[i] : 1.0);
    s->slack = s->scale * (FF_SQRT2 + 1e-6);
    s->dist = dist;
    /* Any values will do (flood_reach checks them); zeroed, they are
     * defined for the checkers. */
    s->window = calloc(4 * (size_t)g->w, sizeof *s->window);
    s->cellf = malloc(n ? n : 1);
    if (keep_roots && (s->root_of = malloc(n * sizeof *s->root_of)) != NULL)
        for (i = 0; i < n; i++)
            s->root_of[i] = NONE;
    if (!s->window || !s->cellf || (keep_roots && !s->root_of))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu cells", n);
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
    free(f.now.k);
    free(f.later.k);
    if (st != FF_OK)
        return st;
    /* A cell no root offered anything is out of reach: its distance is
     * still +inf. */
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
