/* pibt.c - the grant of cell-to-cell moves with reservations: priority
 * inheritance with backtracking (PIBT; Okumura, Machida, Defago and
 * Tamura, "Priority inheritance with backtracking for iterative
 * multi-agent path finding", AIJ 2022), for footprints of any width; see
 * man 1 ffsim, "RESERVATIONS".
 *
 * Each tick the agents are taken in priority order (class priority, then
 * the longer time away from its goal, then the farther start from it,
 * then the lower id).  An agent not decided yet tries its cells best
 * first: the neighbours its profile may step to and its own cell, by its
 * field's cost to goal, a free cell before an occupied one, then a fixed
 * pseudo-random order (tie_order; the reference shuffles).  A
 * cell is refused when a cell of its footprint is taken for the next tick
 * by another agent, when an agent there now has chosen to move into this
 * agent's cells (an edge swap), when a diagonal step crosses another's
 * corner or a wide agent's side cells are not free, or when the footprint
 * would touch a wall on the way (the sweep).  Otherwise the agent takes it
 * for the next tick and every undecided agent standing in it inherits its
 * priority and must move out, recursively; when one of them cannot, the
 * cell is given back and the agent tries its next (the backtracking).  An
 * agent that can take nothing stays.
 */
#include <stdlib.h>
#include <string.h>

#include "pibt.h"
#include "direction.h"
#include "hugepage.h"
#include "sample.h"

#define CAND_MAX 9
#define PIBT_DEPTH_MAX 4096  /* pushes in one chain (stack bound) */
#define UNDECIDED UINT32_MAX

/* A cell's marks for one tick, valid when stamp is the tick's (else all
 * 0): who covers it now and who for the next tick (request + 1, 0 for
 * nobody), and whether a diagonal step of the tick crosses its north-west
 * grid corner.  One record a cell: an agent's neighbourhood is a cache
 * line or two a row. */
struct ff_pibt_cell {
    uint32_t stamp, now, next, corner;
};

static inline uint32_t who_now(const ff_crowd *c, uint32_t cell)
{
    const struct ff_pibt_cell *p = &c->pibt->cell[cell];
    return p->stamp == c->pibt->stamp ? p->now : 0;
}

static inline uint32_t who_next(const ff_crowd *c, uint32_t cell)
{
    const struct ff_pibt_cell *p = &c->pibt->cell[cell];
    return p->stamp == c->pibt->stamp ? p->next : 0;
}

static inline int corner_crossed(const ff_crowd *c, uint32_t cell)
{
    const struct ff_pibt_cell *p = &c->pibt->cell[cell];
    return p->stamp == c->pibt->stamp && p->corner;
}

/* Cell's record for writing: made this tick's (cleared) when stale. */
static inline struct ff_pibt_cell *marks_of(ff_crowd *c, uint32_t cell)
{
    struct ff_pibt_cell *p = &c->pibt->cell[cell];
    if (p->stamp != c->pibt->stamp) {
        p->stamp = c->pibt->stamp;
        p->now = p->next = p->corner = 0;
    }
    return p;
}

static inline void set_next(ff_crowd *c, uint32_t cell, uint32_t who)
{
    marks_of(c, cell)->next = who;
}

/* The footprint of center cell with half-width half, clipped to the map:
 * its box. */
static inline void box_of(const ff_grid *g, uint32_t cell, int32_t half, int32_t *x0, int32_t *y0,
                          int32_t *x1, int32_t *y1)
{
    int32_t x = (int32_t)(cell % (uint32_t)g->w), y = (int32_t)(cell / (uint32_t)g->w);
    *x0 = x - half < 0 ? 0 : x - half;
    *y0 = y - half < 0 ? 0 : y - half;
    *x1 = x + half >= g->w ? g->w - 1 : x + half;
    *y1 = y + half >= g->h ? g->h - 1 : y + half;
}

/* 1 when the footprints (a, ha) and (b, hb) share a cell. */
static inline int overlap(const ff_grid *g, uint32_t a, int32_t ha, uint32_t b, int32_t hb)
{
    int32_t ax = (int32_t)(a % (uint32_t)g->w), ay = (int32_t)(a / (uint32_t)g->w);
    int32_t bx = (int32_t)(b % (uint32_t)g->w), by = (int32_t)(b / (uint32_t)g->w);
    int32_t h = ha + hb;
    return ax - bx <= h && bx - ax <= h && ay - by <= h && by - ay <= h;
}

/* The cost to goal agent i orders its cells by: its own goal's field,
 * its congestion field's, or its profile's; NULL while stale. */

/* A candidate cell.  The keys of the order are found only when a
 * comparison needs them: its cost (most turns take the preferred cell,
 * first whatever the others cost), who stands there (the tick's "now"
 * marks, which the grant does not change once PIBT runs) and the tie
 * (tie_order), each kept once known (flags). */
typedef struct {
    double cost;     /* with CAND_COST */
    uint64_t tie;    /* with CAND_TIE: the fixed "random" order of equal cells */
    uint32_t cell;
    uint32_t flags;  /* CAND_*; (not a char: its stores would alias the maps) */
} cand;

#define CAND_COST 1u      /* cost known */
#define CAND_NEIGHBOUR 2u /* not the agent's own cell */
#define CAND_LOOKED 4u    /* occupancy known: */
#define CAND_OCCUPIED 8u  /* somebody stands there now */
#define CAND_TIE 16u      /* tie known */
#define CAND_DIR_SHIFT 8  /* bits 8..11: the step's direction, 8 for none */

/* A fixed pseudo-random order of equal cells for agent id at tick t
 * (splitmix64's finalizer of the three): the same on every run, not the
 * same from tick to tick, so that no two agents circle each other for
 * ever by always breaking their ties alike. */
static inline uint64_t tie_order(uint32_t id, long long t, uint32_t cell)
{
    uint64_t z = ((uint64_t)id << 32 ^ (uint64_t)t * 0x9e3779b97f4a7c15u) + (uint64_t)cell * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static inline int occupied(const ff_crowd *c, cand *a)
{
    if (!(a->flags & CAND_LOOKED))
        a->flags |= CAND_LOOKED | (who_now(c, a->cell) ? CAND_OCCUPIED : 0);
    return (a->flags & CAND_OCCUPIED) != 0;
}

static inline uint64_t tie_of(cand *a, uint32_t id, long long t)
{
    if (!(a->flags & CAND_TIE)) {
        a->tie = tie_order(id, t, a->cell);
        a->flags |= CAND_TIE;
    }
    return a->tie;
}

/* 1 when candidate a comes before b (both costs known) of agent id: the
 * lower cost, then free before occupied, then the lower tie. */
static int before(const ff_crowd *c, cand *a, cand *b, uint32_t id)
{
    int oa, ob;
    if (a->cost != b->cost)
        return a->cost < b->cost;
    oa = occupied(c, a);
    ob = occupied(c, b);
    if (oa != ob)
        return oa < ob;
    return tie_of(a, id, c->tick) < tie_of(b, id, c->tick);
}

/* Bring the best of cs[m..*n) to cs[m], the others kept in their order:
 * repeated for m = 0, 1, ... this gives the stable sort's order (the
 * first of equals first), one candidate at a time, as PIBT tries them.
 * The preferred cell (cs[preferred], cost -INFINITY, -1 for none; a
 * field's costs are >= 0) is first without a look at the others; else
 * (and from m = 1 on) their costs are read (cost, no cells
 * for none: all 0), and a neighbour with no way on from it for its
 * profile (an infinite cost) leaves the list (*n). */
static void select_next(const ff_crowd *c, cand *cs, int m, int *n, uint32_t id, ff_cost_view cost,
                        int preferred)
{
    int b = m, j, kept;
    cand t;
    if (m > 0 || preferred < 0) {
        /* (each one kept is compared with the best so far as it comes) */
        for (j = kept = m; j < *n; j++) {
            if (!(cs[j].flags & CAND_COST)) {
                cs[j].cost = cost.cells ? ff_cost_at(cost, cs[j].cell) : 0;
                cs[j].flags |= CAND_COST;
                if (!(cs[j].cost < INFINITY) && (cs[j].flags & CAND_NEIGHBOUR))
                    continue;
            }
            if (kept != j)
                cs[kept] = cs[j];
            if (kept > m && before(c, &cs[kept], &cs[b], id))
                b = kept;
            kept++;
        }
        *n = kept;
    } else {
        b = preferred;
    }
    if (b == m)
        return;
    t = cs[b];
    for (j = b; j > m; j--)
        cs[j] = cs[j - 1];
    cs[m] = t;
}

/* The map's open cells round each cell, for candidates (one load, not
 * three rows of the map's costs): bit d (FF_DIR_*) when the neighbour in
 * direction d is in the map and open, bit 8 when the cell itself is
 * open.  Made again when the map changes (only its events change it:
 * ff_profiles.map_tick). */
static void make_open9(ff_crowd *c)
{
    const ff_grid *g = c->grid;
    size_t w = (size_t)g->w, h = (size_t)g->h, x, y;
    uint16_t *o = c->pibt->open9;

    for (x = 0; x < w * h; x++)
        o[x] = (uint16_t)(ff_grid_open(g, x) << 8);
    /* Each cell's bit 8 (its own) ORed into its neighbours' low bits:
     * the rows above and below read only their bit 8. */
    for (y = 0; y < h; y++) {
        uint16_t *row = o + y * w;
        const uint16_t *up = y > 0 ? row - w : NULL, *down = y + 1 < h ? row + w : NULL;
        for (x = 0; x < w; x++) {
            unsigned v = 0, l = x > 0, r = x + 1 < w;
            if (up)
                v |= (up[x] >> 8 & 1u) << FF_DIR_N | (l ? (up[x - 1] >> 8 & 1u) << FF_DIR_NW : 0) |
                     (r ? (up[x + 1] >> 8 & 1u) << FF_DIR_NE : 0);
            if (down)
                v |= (down[x] >> 8 & 1u) << FF_DIR_S | (l ? (down[x - 1] >> 8 & 1u) << FF_DIR_SW : 0) |
                     (r ? (down[x + 1] >> 8 & 1u) << FF_DIR_SE : 0);
            v |= (l ? (row[x - 1] >> 8 & 1u) << FF_DIR_W : 0) | (r ? (row[x + 1] >> 8 & 1u) << FF_DIR_E : 0);
            row[x] = (uint16_t)(row[x] | v);
        }
    }
    c->pibt->open9_tick = c->profiles ? c->profiles->map_tick : -1;
    c->pibt->open9_made = 1;
}

/* The diagonal steps (as bits by direction, FF_DIR_*) whose two side
 * cells (the straight steps they are made of) are open, by the open
 * straight neighbours (bits FF_DIR_N .. FF_DIR_W). */
#define SIDES_OPEN(o, a, b) (((o) >> FF_DIR_##a & (o) >> FF_DIR_##b & 1u))
#define DIAGONALS_OPEN(o) (SIDES_OPEN(o, N, E) << FF_DIR_NE | SIDES_OPEN(o, S, E) << FF_DIR_SE | \
                           SIDES_OPEN(o, S, W) << FF_DIR_SW | SIDES_OPEN(o, N, W) << FF_DIR_NW)
static const uint8_t diagonals_open[16] = {
    DIAGONALS_OPEN(0u), DIAGONALS_OPEN(1u), DIAGONALS_OPEN(2u), DIAGONALS_OPEN(3u),
    DIAGONALS_OPEN(4u), DIAGONALS_OPEN(5u), DIAGONALS_OPEN(6u), DIAGONALS_OPEN(7u),
    DIAGONALS_OPEN(8u), DIAGONALS_OPEN(9u), DIAGONALS_OPEN(10u), DIAGONALS_OPEN(11u),
    DIAGONALS_OPEN(12u), DIAGONALS_OPEN(13u), DIAGONALS_OPEN(14u), DIAGONALS_OPEN(15u),
};

/* The steps request q may take from its cell, as bits by direction
 * (FF_DIR_*): its profile's legal steps, or from a cell its clearance
 * closes (a lead-out cell, whose mask is 0: a step needs both ends open)
 * the map's; *clear those of them ff_footprint_step_clear's common case
 * clears without a measure (a disk within its cell between open cells'
 * centers, a diagonal's two side cells open). */
static inline unsigned turn_steps(const ff_crowd *c, const ff_reserve_request *q, unsigned *clear)
{
    const ff_grid *g = c->grid;
    const ff_profile *f = &c->profiles->profile[c->profiles->class_profile[q->cls]];
    uint32_t w = (uint32_t)g->w, cell = q->cell;
    unsigned steps = f->step_mask[cell], open = c->pibt->open9[cell];
    int d;

    if (!steps && !ff_grid_open(&f->grid, cell))
        for (d = 0; d < 8; d++)
            steps |= (unsigned)ff_grid_step_ok(g, (int)(cell % w), (int)(cell / w), d) << d;
    *clear = c->pibt->cls[q->cls].in_cell && (open >> 8 & 1) ? 0x0fu | diagonals_open[open & 0x0fu] : 0;
    return steps & open;
}

/* Request k's cells (see above), in no order yet: its own cell first,
 * then the neighbours it may step to (steps, clear: turn_steps'; those
 * of an infinite cost still among them); *pref the index of its
 * preferred cell among them, when it is (else left as it was).
 * select_next orders them.  count: 1 to count the turn's direction
 * lookups and sweep refusals. */
static int candidates(ff_crowd *c, size_t k, cand *out, ff_cost_view cost, unsigned steps, unsigned clear,
                      int count, int *pref)
{
    const ff_reserve_request *q = &c->pibt->req[k];
    double r = c->pibt->cls[q->cls].radius;
    uint32_t cell = q->cell, preferred = q->ncand > 0 ? q->cand : UNDECIDED;
    int d, n = 0;
    unsigned left, nsteps = 0, sweep_failures = 0;

    out[n].cell = cell;
    out[n].flags = CAND_LOOKED | 8u << CAND_DIR_SHIFT;  /* (free: its own) */
    n++;
    /* (the steps in direction order, FF_DIR_* ascending) */
    for (left = steps; left; left &= left - 1) {
        uint32_t to;
        d = __builtin_ctz(left);
        nsteps++;
        to = cell + (uint32_t)c->pibt->step[d];
        if (!(clear >> d & 1) && !ff_footprint_sweep_measured(&c->walls, cell, to, r)) {
            /* Counted when it would have been a candidate: a way on
             * from there (or its own path's next cell). */
            if (!cost.cells || ff_cost_at(cost, to) < INFINITY || to == preferred)
                sweep_failures++;
            continue;
        }
        out[n].cell = to;
        /* An own path's or an escape's next cell (stale field, closed
         * cell) comes first; else the field orders them. */
        out[n].cost = -INFINITY;
        out[n].flags = CAND_NEIGHBOUR | (to == preferred ? CAND_COST : 0) | (uint32_t)d << CAND_DIR_SHIFT;
        if (to == preferred)
            *pref = n;
        n++;
    }
    if (count) {
        if (cost.cells)
            c->stats.direction_lookups += 1 + nsteps;  /* (its own cell and a lookup a step) */
        c->stats.sweep_failures += sweep_failures;
    }
    return n;
}

/* The bits set in v < 256 (no library call). */
static inline unsigned popcount8(unsigned v)
{
    v = v - (v >> 1 & 0x55u);
    v = (v & 0x33u) + (v >> 2 & 0x33u);
    return (v + (v >> 4)) & 0x0fu;
}

/* The direction of the step from cell to the neighbour next among
 * steps (bits by direction), or 8 when it is not one of them. */
static inline unsigned step_to(const ff_crowd *c, uint32_t cell, uint32_t next, unsigned steps)
{
    for (; steps; steps &= steps - 1) {
        unsigned d = (unsigned)__builtin_ctz(steps);
        if (cell + (uint32_t)c->pibt->step[d] == next)
            return d;
    }
    return 8;
}

/* The cell whose north-west grid corner the step in direction d from
 * cell from passes when it is a diagonal, or SIZE_MAX (a straight step,
 * or d = 8: none). */
static inline size_t step_corner(const ff_grid *g, uint32_t from, unsigned d)
{
    if (d - FF_DIR_NE >= 4u)  /* (the diagonals are FF_DIR_NE .. FF_DIR_NW) */
        return SIZE_MAX;
    return (size_t)from + (ff_dir_dy[d] > 0 ? (size_t)g->w : 0) + (ff_dir_dx[d] > 0);
}

/* 1 when an agent at j standing now, whose next center is next_j, swaps
 * edges with request q: it moves, into q's footprint. */
static inline int swaps_with(const ff_crowd *c, uint32_t j, const ff_reserve_request *q)
{
    const ff_reserve_request *o = &c->pibt->req[j - 1];
    if (o->next == UNDECIDED || o->next == o->cell)
        return 0;
    if (o->half == 0 && q->half == 0)
        return o->next == q->cell;
    return overlap(c->grid, o->next, o->half, q->cell, q->half);
}

/* 1 when request k may take center cell to (the step in direction d, 8
 * for its own cell) for the next tick: no cell of its footprint taken by
 * another, no edge swap with an agent there, no diagonal crossing. */
static int may_take(const ff_crowd *c, size_t k, uint32_t to, unsigned d)
{
    const ff_grid *g = c->grid;
    const ff_reserve_request *q = &c->pibt->req[k];
    int32_t x0, y0, x1, y1, x, y;
    size_t corner = step_corner(g, q->cell, d);

    if (q->half == 0) {
        /* A footprint of one cell: that cell alone. */
        uint32_t o = who_next(c, to), j = who_now(c, to);
        if ((o && o != k + 1) || (j && j != k + 1 && swaps_with(c, j, q)))
            return 0;
        return corner == SIZE_MAX || !corner_crossed(c, (uint32_t)corner);
    }
    box_of(g, to, q->half, &x0, &y0, &x1, &y1);
    for (y = y0; y <= y1; y++)
        for (x = x0; x <= x1; x++) {
            uint32_t cell = (uint32_t)y * (uint32_t)g->w + (uint32_t)x, o = who_next(c, cell), j;
            if (o && o != k + 1)
                return 0;
            j = who_now(c, cell);
            if (j && j != k + 1 && swaps_with(c, j, q))
                return 0;  /* an edge swap */
        }
    if (corner != SIZE_MAX) {
        /* A diagonal step: its corner not crossed by another diagonal,
         * and a wide agent's side cells free of others now and next. */
        uint32_t fx = q->cell % (uint32_t)g->w, fy = q->cell / (uint32_t)g->w;
        uint32_t tx = to % (uint32_t)g->w, ty = to / (uint32_t)g->w;
        if (corner_crossed(c, (uint32_t)corner))
            return 0;
        if (q->half > 0) {
            uint32_t side[2];
            int s;
            side[0] = fy * (uint32_t)g->w + tx;
            side[1] = ty * (uint32_t)g->w + fx;
            for (s = 0; s < 2; s++) {
                box_of(g, side[s], q->half, &x0, &y0, &x1, &y1);
                for (y = y0; y <= y1; y++)
                    for (x = x0; x <= x1; x++) {
                        uint32_t cell = (uint32_t)y * (uint32_t)g->w + (uint32_t)x;
                        uint32_t o = who_next(c, cell), j = who_now(c, cell);
                        if ((o && o != k + 1) || (j && j != k + 1))
                            return 0;
                    }
            }
        }
    }
    return 1;
}

/* Mark (who = k + 1) or give back (who = 0, only cells still k's) the
 * footprint of center cell for the next tick. */
static void mark(ff_crowd *c, size_t k, uint32_t center, uint32_t who)
{
    const ff_grid *g = c->grid;
    int32_t x0, y0, x1, y1, x, y;

    if (c->pibt->req[k].half == 0) {
        if (who || who_next(c, center) == k + 1)
            set_next(c, center, who);
        return;
    }
    box_of(g, center, c->pibt->req[k].half, &x0, &y0, &x1, &y1);
    for (y = y0; y <= y1; y++)
        for (x = x0; x <= x1; x++) {
            uint32_t cell = (uint32_t)y * (uint32_t)g->w + (uint32_t)x;
            if (who || who_next(c, cell) == k + 1)
                set_next(c, cell, who);
        }
}

/* Mark (who = k + 1) or give back (who = 0) for the next tick what
 * request k's step to center cell to crosses when it is a diagonal (its
 * grid corner corner; SIZE_MAX: none): the corner, which no other
 * diagonal may cross, and for a wide agent the footprints of the two
 * side cells, which it sweeps (may_take found them free; only cells
 * still k's are given back). */
static inline void mark_crossed(ff_crowd *c, size_t k, uint32_t to, size_t corner, uint32_t who)
{
    uint32_t w = (uint32_t)c->grid->w, from = c->pibt->req[k].cell;

    if (corner == SIZE_MAX)
        return;
    marks_of(c, (uint32_t)corner)->corner = who != 0;
    if (c->pibt->req[k].half > 0) {
        mark(c, k, from / w * w + to % w, who);
        mark(c, k, to / w * w + from % w, who);
    }
}

/* Into cs[0] the best of request q's own cell (set there) and the
 * neighbours of steps (with a cost to goal, all clear of the sweep): what
 * select_next brings first from candidates' cells when none is
 * preferred, by the same comparisons in the same order. */
static void best_cell(const ff_crowd *c, const ff_reserve_request *q, cand *cs, unsigned steps)
{
    cs[0].cost = ff_cost_at(q->cost, q->cell);
    cs[0].flags |= CAND_COST;
    if (cs[0].cost == 0 && q->cost.hops)
        return;  /* (its goal, the one cell of hop count 0: none ties it) */
    for (; steps; steps &= steps - 1) {
        unsigned d = (unsigned)__builtin_ctz(steps);
        cand t;
        t.cell = q->cell + (uint32_t)c->pibt->step[d];
        t.cost = ff_cost_at(q->cost, t.cell);
        if (!(t.cost < INFINITY) || t.cost > cs[0].cost)
            continue;  /* (no way on from there: not a candidate; or a higher cost) */
        t.flags = CAND_NEIGHBOUR | CAND_COST | d << CAND_DIR_SHIFT;
        if (t.cost < cs[0].cost || before(c, &t, &cs[0], q->id))
            cs[0] = t;
    }
}

/* PIBT for request k: 1 when it takes a cell it may move on from (its
 * own included, when that is its best), 0 when it stays for want of any. */
static int pibt(ff_crowd *c, size_t k, int depth)
{
    const ff_grid *g = c->grid;
    ff_reserve_request *q = &c->pibt->req[k];
    ff_cost_view cost = q->cost;
    cand cs[CAND_MAX];
    int pref = -1, n = 1, m, later = 0;
    unsigned steps = 0, clear = 0, dp = 8;

    cs[0].cell = q->cell;
    cs[0].flags = CAND_LOOKED | 8u << CAND_DIR_SHIFT;
    if (cost.cells || q->ncand > 0) {  /* (else it stays, pushed by nobody: waiting, stuck) */
        steps = turn_steps(c, q, &clear);
        if (q->ncand > 0 && !(steps & ~clear))
            dp = step_to(c, q->cell, q->cand, steps);
        if (!(steps & ~clear) && (dp < 8 || (q->ncand == 0 && cost.cells))) {
            /* No sweep to measure: its first cell alone, the others only
             * when it is refused (the same order, the same counts). */
            if (dp < 8) {
                /* (its preferred: first whatever the others cost) */
                cs[0].cell = q->cand;
                cs[0].cost = -INFINITY;
                cs[0].flags = CAND_NEIGHBOUR | CAND_COST | dp << CAND_DIR_SHIFT;
            } else {
                best_cell(c, q, cs, steps);
            }
            if (cost.cells)
                c->stats.direction_lookups += 1 + popcount8(steps);
            later = 1;
        } else {
            n = candidates(c, k, cs, cost, steps, clear, 1, &pref);
        }
    }
    if (!later)
        select_next(c, cs, 0, &n, q->id, cost, pref);
    q->ncand = cs[0].cell != q->cell;  /* it asked to move */
    q->blocker = FF_RESERVE_NONE;
    for (m = 0; m < n || later; m++) {
        uint32_t to;
        unsigned d;
        int32_t x0, y0, x1, y1, x, y, ok = 1;
        size_t corner;
        if (later && m > 0) {
            /* (its cells as candidates gives them, the preferred first) */
            n = candidates(c, k, cs, cost, steps, clear, 0, &pref);
            select_next(c, cs, 0, &n, q->id, cost, pref);
            later = 0;
        }
        if (m > 0) {
            select_next(c, cs, m, &n, q->id, cost, -1);
            if (m == n)
                break;  /* the rest had no way on */
        }
        to = cs[m].cell;
        d = cs[m].flags >> CAND_DIR_SHIFT & 15u;
        if (!may_take(c, k, to, d)) {
            if (m == 0 && q->ncand) {
                uint32_t o = who_next(c, to);
                q->blocker = o ? o - 1 : who_now(c, to) ? who_now(c, to) - 1 : FF_RESERVE_NONE;
            }
            continue;
        }
        if (q->half == 0)
            set_next(c, to, (uint32_t)k + 1);  /* (mark's, for one cell) */
        else
            mark(c, k, to, (uint32_t)k + 1);
        q->next = to;
        corner = step_corner(g, q->cell, d);
        mark_crossed(c, k, to, corner, (uint32_t)k + 1);  /* tentatively: the children must not cross it */
        /* Everyone undecided standing there must make room. */
        if (q->half == 0) {
            uint32_t j = who_now(c, to);
            if (j && j != k + 1 && c->pibt->req[j - 1].next == UNDECIDED &&
                (depth >= PIBT_DEPTH_MAX || !pibt(c, j - 1, depth + 1))) {
                ok = 0;
                if (m == 0)
                    q->blocker = j - 1;
            }
            /* (a child that stayed took its cell back) */
            if (ok && who_next(c, to) == k + 1)
                return 1;
            goto refused;
        }
        box_of(g, to, q->half, &x0, &y0, &x1, &y1);
        for (y = y0; y <= y1 && ok; y++)
            for (x = x0; x <= x1 && ok; x++) {
                uint32_t j = who_now(c, (uint32_t)y * (uint32_t)g->w + (uint32_t)x);
                if (!j || j == k + 1 || c->pibt->req[j - 1].next != UNDECIDED)
                    continue;
                if (depth >= PIBT_DEPTH_MAX || !pibt(c, j - 1, depth + 1)) {
                    ok = 0;
                    if (m == 0)
                        q->blocker = j - 1;
                }
            }
        /* A child that stayed took its cells back: the footprint must
         * still be whole. */
        if (ok) {
            for (y = y0; y <= y1 && ok; y++)
                for (x = x0; x <= x1 && ok; x++)
                    ok = who_next(c, (uint32_t)y * (uint32_t)g->w + (uint32_t)x) == k + 1;
        }
        if (ok)
            return 1;
    refused:
        mark_crossed(c, k, to, corner, 0);
        mark(c, k, to, 0);
        q->next = UNDECIDED;
    }
    /* Nothing: it stays, its cells its own whoever asked for them. */
    mark(c, k, q->cell, (uint32_t)k + 1);
    q->next = q->cell;
    return 0;
}

/* Request k's turn when it rests: it asks to move nowhere (ncand 0),
 * covers one cell, stands on its own goal (the one cell of hop count 0
 * of its field: best_cell keeps it, no neighbour can tie it), its steps
 * (turn_steps') need no sweep measured, and nobody but it has marked
 * that cell, now or for the next tick.  Then it keeps its cell, as pibt() would (may_take
 * grants it, and nobody stands there to push), and its lookups are
 * counted as there; 1, and its lookups + 1 in rest[k] (c->pibt->rest).  0
 * (nothing done) when it does not rest.  cached: 1 when rest holds the
 * last tick's short turns, taken on this map and these fields:
 * one there of an agent that has not moved since (grid_kept 2) rests
 * again but for the marks, with as many lookups. */
static inline int stays_at_rest(ff_crowd *c, size_t k, int cached, uint8_t *rest)
{
    ff_reserve_request *q = &c->pibt->req[k];
    struct ff_pibt_cell *p;
    unsigned lookups, steps, clear;

    if (q->ncand != 0 || q->half != 0 || !q->cost.hops)
        return 0;
    if (cached && c->pibt->kept[k] == 2 && rest[k]) {
        lookups = rest[k] - 1u;
    } else {
        if (ff_cost_at(q->cost, q->cell) != 0)
            return 0;
        /* (pibt()'s steps; every one cleared without a sweep measured) */
        steps = turn_steps(c, q, &clear);
        if (!steps || (steps & ~clear))
            return 0;
        lookups = 1 + popcount8(steps);
    }
    p = &c->pibt->cell[q->cell];
    if (p->stamp != c->pibt->stamp || p->now != k + 1 || p->next != 0)
        return 0;
    c->stats.direction_lookups += lookups;
    c->pibt->rest_turns++;
    p->next = (uint32_t)k + 1;
    q->next = q->cell;
    q->blocker = FF_RESERVE_NONE;
    rest[k] = (uint8_t)(lookups + 1);
    return 1;
}

/* Ask for what request k's turn will read round its center: the
 * profile's steps there, the map's open cells round it, and the marks
 * of its preferred cell and the corner a diagonal step to it crosses (the
 * costs to goal are read only when that cell is refused; with none
 * preferred, the marks round it; of one that rested there at the last
 * tick, cached as for stays_at_rest, its marks alone).  The agents' turns
 * wander over the whole map, and these loads would each wait on memory.
 * Changes nothing but speed. */
static void prefetch_around(const ff_crowd *c, uint32_t k, int cached)
{
    const ff_grid *g = c->grid;
    const ff_reserve_request *q = &c->pibt->req[k];
    uint32_t cell = q->cell;
    const ff_profile *f = ff_profiles_of(c->profiles, q->cls);

    if (q->ncand == 0 && cached && c->pibt->kept[k] == 2 && c->pibt->rest[k]) {
        PREFETCH(&c->pibt->cell[cell]);  /* (most likely it rests again: stays_at_rest) */
        return;
    }
    PREFETCH(&f->step_mask[cell]);
    PREFETCH(&c->pibt->open9[cell]);
    if (q->ncand > 0 && q->half == 0) {
        /* (the corner of a diagonal to it: from the cells' difference) */
        uint32_t w = (uint32_t)g->w, diff = q->cand - cell;
        PREFETCH(&c->pibt->cell[q->cand]);
        if (diff == w + 1 || diff == w - 1 || diff == -w + 1 || diff == -w - 1)
            PREFETCH(&c->pibt->cell[(size_t)cell + (diff == w + 1 || diff == w - 1 ? w : 0) + (diff == w + 1 || diff == -w + 1)]);
    } else if (q->ncand == 0 && q->half == 0 && q->cost.hops) {
        /* (most likely it rests: its cell's marks and cost alone) */
        PREFETCH(&c->pibt->cell[cell]);
        PREFETCH(ff_cost_addr(q->cost, cell));
    } else {
        prefetch_around_cell(c->pibt->cell, sizeof *c->pibt->cell, g, cell);
    }
}

/* A request's keys of the grant order, gathered in one place (the sort
 * visits them at random: one line, not its request, agent and plan). */
struct ff_pibt_key {
    long priority;
    long long waited;
    double start_cost;
    uint32_t id;
};

static const struct ff_pibt_key *sort_keys;

/* Grant order: class priority, then longer away from the goal, then the
 * farther start from the goal, then the lower id (a total order: qsort is
 * deterministic on it). */
static int cmp_order(const void *pa, const void *pb)
{
    const struct ff_pibt_key *a = &sort_keys[*(const uint32_t *)pa];
    const struct ff_pibt_key *b = &sort_keys[*(const uint32_t *)pb];
    if (a->priority != b->priority)
        return a->priority < b->priority ? -1 : 1;
    if (a->waited != b->waited)
        return a->waited > b->waited ? -1 : 1;
    if (a->start_cost != b->start_cost)
        return a->start_cost > b->start_cost ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

void ff_pibt_enter(ff_crowd *c, size_t i)
{
    const ff_agent *a = &c->agent[i];
    ff_cost_view cost = ff_agent_cost(c, i);
    long long cx, cy;
    double d = 0;

    ff_world_to_cell(c->grid, a->x, a->y, &cx, &cy);
    if (cost.cells) {
        d = ff_cost_at(cost, (size_t)cy * (size_t)c->grid->w + (size_t)cx);
        if (!(d < INFINITY))
            d = -1;  /* no way: last */
    }
    c->plan[i].start_cost = d;
}

/* The grant order of this tick's n requests into c->pibt->order.  The
 * keys change little from tick to tick, so the sort starts from last
 * tick's order (of agents), the newcomers after it, and inserts: little
 * to do when few keys moved, and past 8 n moves qsort takes over.
 * cmp_order is a total order: either gives its one sorted order.  When
 * every request is the same agent's as last tick, a request after the
 * one it followed then, neither key changed, is not compared. */
static void order_requests(ff_crowd *c, size_t n)
{
    uint32_t *order = c->pibt->order;
    uint8_t *changed = c->pibt->placed;
    struct ff_pibt_key *keys = c->pibt->key;
    const ff_reserve_request *req = c->pibt->req;
    size_t k, m = 0, moves = 0;
    int kept = c->pibt->rq->all_kept && c->pibt->nprev == n, moved = 0;

    if (kept) {
        /* Every request the same agent's as last tick: the last order
         * (of requests) is the start, and their keys but the time away
         * are as they were (pibt_placed: 1 when it changed). */
        for (k = 0; k < n; k++) {
            changed[k] = keys[k].waited != req[k].waited;
            keys[k].waited = req[k].waited;
        }
    } else {
        for (k = 0; k < n; k++) {
            const ff_reserve_request *q = &c->pibt->req[k];
            struct ff_pibt_key *key = &c->pibt->key[k];
            c->pibt->req_of[c->pibt->req_agent[k]] = (uint32_t)k;
            c->pibt->placed[k] = 0;
            key->priority = q->priority;
            key->waited = q->waited;
            key->start_cost = c->plan[c->pibt->req_agent[k]].start_cost;
            key->id = q->id;
        }
        for (k = 0; k < c->pibt->nprev; k++) {
            uint32_t i = c->pibt->prev[k], j = c->pibt->req_of[i];
            if (j < n && c->pibt->req_agent[j] == i) {
                order[m++] = j;
                c->pibt->placed[j] = 1;
            }
        }
        for (k = 0; k < n; k++)
            if (!c->pibt->placed[k])
                order[m++] = (uint32_t)k;
    }
    sort_keys = c->pibt->key;
    for (k = 1; k < n && moves <= 8 * n; k++) {
        uint32_t t = order[k];
        size_t j;
        if (kept && !moved && !changed[t] && !changed[order[k - 1]])
            continue;  /* (its neighbour of the last order, neither key changed: still after it) */
        for (j = k; j > 0 && cmp_order(&t, &order[j - 1]) < 0; j--)
            order[j] = order[j - 1];
        moves += k - j;
        moved = j < k;
        order[j] = t;
    }
    if (moves > 8 * n)
        qsort(order, n, sizeof *order, cmp_order);
    sort_keys = NULL;
    for (k = 0; k < n; k++)
        c->pibt->prev[k] = c->pibt->req_agent[order[k]];
    c->pibt->nprev = n;
}

void ff_pibt_begin(ff_crowd *c, size_t n)
{
    size_t k;

    if (++c->pibt->stamp == 0) {  /* wrapped: every mark is stale */
        memset(c->pibt->cell, 0, (size_t)c->grid->w * (size_t)c->grid->h * sizeof *c->pibt->cell);
        c->pibt->stamp = 1;
    }
    if (!c->pibt->open9_made || (c->profiles && c->profiles->map_tick != c->pibt->open9_tick))
        make_open9(c);
    for (k = 0; k < n; k++) {
        const ff_grid *g = c->grid;
        int32_t x0, y0, x1, y1, x, y;
        if (k + PREFETCH_AHEAD < n)
            PREFETCH(&c->pibt->cell[c->pibt->req[k + PREFETCH_AHEAD].cell]);
        c->pibt->req[k].next = UNDECIDED;
        if (c->pibt->req[k].half == 0) {
            marks_of(c, c->pibt->req[k].cell)->now = (uint32_t)k + 1;
            continue;
        }
        box_of(g, c->pibt->req[k].cell, c->pibt->req[k].half, &x0, &y0, &x1, &y1);
        for (y = y0; y <= y1; y++)
            for (x = x0; x <= x1; x++) {
                marks_of(c, (uint32_t)y * (uint32_t)g->w + (uint32_t)x)->now = (uint32_t)k + 1;
            }
    }
    /* (the order is kept from tick to tick: made every tick) */
    order_requests(c, n);
}

void ff_pibt_grant(ff_crowd *c, size_t n, int planned)
{
    size_t k;

    if (planned) {
        /* The complement's plan decides this tick: nobody asks, nobody
         * waits. */
        for (k = 0; k < n; k++) {
            c->pibt->req[k].ncand = 0;
            c->pibt->req[k].blocker = FF_RESERVE_NONE;
            mark(c, k, c->pibt->req[k].next, (uint32_t)k + 1);
        }
    } else {
        int cached = c->pibt->rest_made && c->profiles->map_tick == c->pibt->rest_map &&
                     c->goals.builds == c->pibt->rest_builds, full = c->pibt->full_turns;
        const uint32_t *order = c->pibt->order;
        uint8_t *rest = c->pibt->rest;
        for (k = 0; k < n; k++) {
            uint32_t r = order[k];
            if (k + 2 * PREFETCH_AHEAD < n)
                PREFETCH(&c->pibt->req[order[k + 2 * PREFETCH_AHEAD]]);
            if (k + PREFETCH_AHEAD < n)
                prefetch_around(c, order[k + PREFETCH_AHEAD], cached);
            if (c->pibt->req[r].next != UNDECIDED) {
                rest[r] = 0;  /* (pushed) */
            } else if (full || !stays_at_rest(c, r, cached, rest)) {
                rest[r] = 0;
                pibt(c, r, 0);
            }
        }
        c->pibt->rest_map = c->profiles->map_tick;
        c->pibt->rest_builds = c->goals.builds;
    }
    /* (after the complement's tick, no short turns to go by) */
    c->pibt->rest_made = !planned;
    for (k = 0; k < n; k++) {
        ff_reserve_request *q = &c->pibt->req[k];
        q->granted = q->next != q->cell ? 0 : -1;
        q->cand = q->next;
    }
}

ff_status ff_pibt_init(ff_crowd *c, const ff_requests *rq, size_t nagents, ff_error *err)
{
    size_t cells = (size_t)c->grid->w * (size_t)c->grid->h;
    size_t na = nagents ? nagents : 1;
    struct ff_pibt *pb;
    int k;

    if (!(pb = c->pibt = calloc(1, sizeof *pb)))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu agents", nagents);
    pb->rq = rq;
    pb->req = rq->req;
    pb->req_agent = rq->agent;
    pb->kept = rq->kept;
    pb->cls = rq->cls;
    pb->cell = calloc(cells ? cells : 1, sizeof *pb->cell);
    pb->order = malloc(na * sizeof *pb->order);
    pb->prev = malloc(na * sizeof *pb->prev);
    pb->req_of = calloc(na, sizeof *pb->req_of);
    pb->placed = malloc(na);
    pb->open9 = malloc((cells ? cells : 1) * sizeof *pb->open9);
    pb->key = malloc(na * sizeof *pb->key);
    pb->rest = malloc(na);
    for (k = 0; k < 8; k++)
        pb->step[k] = ff_dir_dy[k] * c->grid->w + ff_dir_dx[k];
    if (!pb->cell || !pb->order || !pb->prev || !pb->req_of || !pb->placed || !pb->open9 || !pb->key ||
        !pb->rest)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu agents", nagents);
    /* Looked up at random, a neighbourhood an agent: huge pages spare TLB misses. */
    ff_want_huge_pages(pb->cell, cells * sizeof *pb->cell);
    return FF_OK;
}

void ff_pibt_free(ff_crowd *c)
{
    struct ff_pibt *pb = c->pibt;

    if (!pb)
        return;
    free(pb->cell);
    free(pb->order);
    free(pb->prev);
    free(pb->req_of);
    free(pb->placed);
    free(pb->open9);
    free(pb->key);
    free(pb->rest);
    free(pb);
    c->pibt = NULL;
}

int ff_pibt_claim(ff_crowd *c, uint32_t center, int32_t half)
{
    const ff_grid *g = c->grid;
    int32_t x0, y0, x1, y1, x, y;

    box_of(g, center, half, &x0, &y0, &x1, &y1);
    for (y = y0; y <= y1; y++)
        for (x = x0; x <= x1; x++)
            if (who_next(c, (uint32_t)y * (uint32_t)g->w + (uint32_t)x))
                return 0;
    for (y = y0; y <= y1; y++)
        for (x = x0; x <= x1; x++)
            set_next(c, (uint32_t)y * (uint32_t)g->w + (uint32_t)x, UINT32_MAX);
    return 1;
}
