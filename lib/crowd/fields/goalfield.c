/* goalfield.c - the fields of agents' own goals; see goalfield.h. */
#include "goalfield.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "direction.h"
#include "grow.h"
#include "search.h"

static void queues_free(ff_goalfield *f);

void ff_goalfields_init(ff_goalfields *s)
{
    memset(s, 0, sizeof *s);
    s->cost_profile = -1;
}

void ff_goalfields_free(ff_goalfields *s)
{
    size_t k;
    for (k = 0; k < s->nfields; k++) {
        free(s->field[k].block);
        if (s->field[k].tiles)
            ff_hoptiles_free(s->field[k].tiles);
        free(s->field[k].tiles);
        queues_free(&s->field[k]);
    }
    for (k = 0; k < s->nhopcost; k++) {
        free(s->hopcost[k]->cost);
        free(s->hopcost[k]);
    }
    free(s->hopcost);
    for (k = 0; k < s->nsteps; k++)
        free(s->steps[k]);
    free(s->steps);
    free(s->steps_id);
    free(s->field);
    free(s->key);
    free(s->slot_field);
    ff_goalfields_init(s);
}

static size_t slot_of(uint64_t key, size_t nslots)
{
    return (size_t)(key * 0x9E3779B97F4A7C15ULL >> 17) & (nslots - 1);
}

static ff_status grow(ff_goalfields *s, ff_error *err)
{
    size_t n = s->nslots ? 2 * s->nslots : 64, k;
    uint64_t *key = calloc(n, sizeof *key);
    uint32_t *val = malloc(n * sizeof *val);

    if (!key || !val) {
        free(key);
        free(val);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for goal fields");
    }
    for (k = 0; k < s->nslots; k++)
        if (s->key[k]) {
            size_t h = slot_of(s->key[k], n);
            while (key[h])
                h = (h + 1) & (n - 1);
            key[h] = s->key[k];
            val[h] = s->slot_field[k];
        }
    free(s->key);
    free(s->slot_field);
    s->key = key;
    s->slot_field = val;
    s->nslots = n;
    return FF_OK;
}

ff_status ff_goalfields_find(ff_goalfields *s, int32_t profile, uint32_t goal, uint32_t *index,
                             ff_error *err)
{
    uint64_t key = ((uint64_t)(uint32_t)profile << 32 | goal) + 1;
    size_t h;
    ff_status st;

    if (2 * (s->nfields + 1) > s->nslots && (st = grow(s, err)) != FF_OK)
        return st;
    for (h = slot_of(key, s->nslots); s->key[h]; h = (h + 1) & (s->nslots - 1))
        if (s->key[h] == key) {
            *index = s->slot_field[h];
            return FF_OK;
        }
    if (s->nfields == s->cap) {
        ff_goalfield *f = ff_grow(s->field, &s->cap, s->nfields + 1, sizeof *f, 64);
        if (!f)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for goal fields");
        s->field = f;
    }
    memset(&s->field[s->nfields], 0, sizeof *s->field);
    s->field[s->nfields].profile = profile;
    s->field[s->nfields].goal = goal;
    s->key[h] = key;
    s->slot_field[h] = (uint32_t)s->nfields;
    *index = (uint32_t)s->nfields++;
    return FF_OK;
}

void ff_goalfields_rename(ff_goalfields *s, int32_t profile, uint64_t from, uint64_t to)
{
    size_t k;

    for (k = 0; k < s->nfields; k++)
        if (s->field[k].profile == profile && s->field[k].built && s->field[k].built_id == from)
            s->field[k].built_id = to;
    if ((size_t)profile < s->nsteps && s->steps[profile] && s->steps_id[profile] == from)
        s->steps_id[profile] = to;
    if (s->cost_profile == profile && s->cost_id == from)
        s->cost_id = to;
}

/* The cost every open cell of grid g has, or 0 when they differ (or none
 * is open). */
static float uniform_cost(const ff_grid *g)
{
    size_t n = (size_t)g->w * (size_t)g->h, k;
    float c0 = 0;
    for (k = 0; k < n; k++) {
        float c = g->cost[k];
        if (!(c < INFINITY))
            continue;
        if (c0 == 0)
            c0 = c;
        else if (c != c0)
            return 0;
    }
    return c0;
}

/* Offer hop count to to the neighbour u of a cell, in a plane of 16-bit
 * counts, when it may step into it (in, 0 or 1): u joins the queue at
 * *near when that lowers u's count and the step lowers the heuristic
 * (nearer, 0 or 1), else at *far.  No branch: the count is written back
 * unless lowered, the queue's slot written every time and kept when u
 * joins. */
static inline void offer_flat(uint16_t *hop, size_t u, unsigned in, uint32_t to, unsigned nearer, uint32_t **near,
                              uint32_t **far, int aimed)
{
    uint32_t hu = hop[u];
    unsigned fewer = in & (to < hu);
    hop[u] = (uint16_t)(fewer ? to : hu);
    if (aimed) {
        **near = (uint32_t)u;
        *near += fewer & nearer;
    }
    **far = (uint32_t)u;
    *far += fewer & (nearer ^ 1);
}

/* The count of cell of field f: in tiles, or a plane of 16-bit counts
 * (all ones: unreached, above every count). */
static inline uint32_t count_of(const ff_goalfield *f, uint32_t cell, int tiled)
{
    return tiled ? ff_hoptiles_get(f->tiles, cell) : ((const uint16_t *)f->hop)[cell];
}

/* A neighbour of the cell a search takes in tiles: its cell,
 * coordinates, tile and index in it. */
typedef struct {
    uint32_t cell, x, y;
    ff_hoptile *tile;
    unsigned k;
} near_cell;

/* The neighbour of cell v (at x, y) at dx, dy when
 * there (a step leads between them: some), else v itself (its count:
 * neither lower nor offered fewer), so that all four are read without a
 * branch on the map; edge, 1 when v is on the edge of its tile pv that
 * way, when the neighbour's tile is the next one. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void near_of(const ff_hoptiles *tiles, near_cell *n, uint32_t v, uint32_t x, uint32_t y,
                           ff_hoptile *pv, unsigned some, int dx, int dy, unsigned edge)
{
    int ok = some != 0;
    n->x = ok ? x + (uint32_t)dx : x;
    n->y = ok ? y + (uint32_t)dy : y;
    n->cell = ok ? v + (uint32_t)(dy * (int32_t)tiles->w + dx) : v;
    n->k = ff_hoptile_index(n->x, n->y);
    n->tile = pv;
    if (ok && edge)
        n->tile = *ff_hoptiles_slot(tiles, n->x, n->y);
}

/* Offer hop count to to neighbour n of a cell when n may step into it
 * (in, 0 or 1): n joins the queue at *near when that lowers its count
 * and the step lowers the heuristic (nearer, 0 or 1), else at *far.
 * Without a branch on the map in the common case (a narrow tile made,
 * the count fitting): the count is written back unless lowered, the
 * queue's slot written every time and kept when n joins.  -1 when a tile
 * could not be made (out of memory). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int offer(ff_hoptiles *tiles, const near_cell *n, unsigned in, uint32_t to, unsigned nearer,
                        uint32_t **near, uint32_t **far, int aimed)
{
    ff_hoptile *p = n->tile;
    unsigned fewer;
    uint32_t old = p->low[n->k], r = to - p->base;

    if (p == FF_HOPTILE_NONE || p->high || r >= UINT16_MAX) {
        fewer = in & (to < ff_hoptile_get(p, n->k));
        if (fewer &&
            ff_hoptiles_set(tiles, ff_hoptiles_slot(tiles, n->x, n->y), n->x, n->y, n->k, to) < 0)
            return -1;
    } else {
        fewer = in & (r < old);
        p->low[n->k] = (uint16_t)(fewer ? r : old);
    }
    if (aimed) {
        **near = n->cell;
        *near += fewer & nearer;
    }
    **far = n->cell;
    *far += fewer & (nearer ^ 1);
    return 0;
}

/* The slots of a new queue of a field on a grid of w x h cells (it
 * doubles as needed): the power of two at or above w + h, at least 16.
 * A search's front holds about that many cells on open maps (a diamond
 * round the goal), so that the queues seldom grow or move their cells;
 * 256 slots whatever the map took 3 KB a field on a 32 x 32 map, more
 * than its hop counts and codes, and the fresh pages cost most (a page
 * fault each). */
static size_t queue_first(int32_t w, int32_t h)
{
    size_t want = (size_t)w + (size_t)h, n = 16;
    while (n < want && n < ((size_t)1 << 20))
        n *= 2;
    return n;
}

/* Room in queue q for 4 more cells at its tail: the cells still to take
 * moved to its start, into one twice as long when they fill half of it.
 * -1: no memory. */
static int queue_room(ff_goalqueue *q)
{
    size_t live = q->tail - q->head;
    uint32_t *c = q->cell;
    if (2 * (live + 4) > q->cap) {
        if (!(c = malloc(2 * q->cap * sizeof *c)))
            return -1;
        q->cap *= 2;
    }
    memmove(c, q->cell + q->head, live * sizeof *c);
    if (c != q->cell)
        free(q->cell);
    q->cell = c;
    q->head = 0;
    q->tail = live;
    return 0;
}

/* Field f's queues freed: the search is over. */
static void queues_free(ff_goalfield *f)
{
    int k;
    for (k = 0; k < 3; k++) {
        free(f->open[k].cell);
        memset(&f->open[k], 0, sizeof f->open[k]);
    }
    f->searching = 0;
}

/* Field f's three empty queues of slots each.  -1: no memory. */
static int queues_new(ff_goalfield *f, size_t slots)
{
    int k;
    for (k = 0; k < 3; k++) {
        if (!(f->open[k].cell = malloc(slots * sizeof *f->open[k].cell))) {
            queues_free(f);
            return -1;
        }
        f->open[k].cap = slots;
    }
    return 0;
}

/* Field f's queues' ends, from the search's pointers (see search_body). */
static void queues_put(ff_goalfield *f, const uint32_t *pc, const uint32_t *ec, const uint32_t *pn,
                       const uint32_t *en, const uint32_t *ex)
{
    f->open[0].head = (size_t)(pc - f->open[0].cell);
    f->open[0].tail = (size_t)(ec - f->open[0].cell);
    f->open[1].head = (size_t)(pn - f->open[1].cell);
    f->open[1].tail = (size_t)(en - f->open[1].cell);
    f->open[2].head = 0;
    f->open[2].tail = (size_t)(ex - f->open[2].cell);
}

/* The work of the search on cell v (hv hops, step mask m: see
 * ff_goalfields) in a plane of 16-bit counts (hop) on a grid w wide:
 * its neighbours offered to hops (offer_flat; nearer: the steps into v
 * that lower the heuristic), and the steps of v that lead lower,
 * returned.  Every neighbour's count is read, with or without a step. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline unsigned step_flat(uint16_t *hop, uint32_t v, uint32_t hv, unsigned m, uint32_t to, unsigned nearer,
                                 size_t w, uint32_t **near, uint32_t **far, int aimed)
{
    /* (the offsets of codes N, E, S, W: ff_dir_dx, ff_dir_dy) */
    const size_t on = (size_t)0 - w, oe = 1, os = w, ow = (size_t)0 - 1;
    unsigned lower = (m & 1 & (hop[v + on] < hv)) | (m & 2 & (unsigned)(hop[v + oe] < hv) << 1) |
                     (m & 4 & (unsigned)(hop[v + os] < hv) << 2) | (m & 8 & (unsigned)(hop[v + ow] < hv) << 3);
    /* (bit 4 + d: the neighbour v - off[d] steps d into v) */
    offer_flat(hop, v - on, m >> 4 & 1, to, nearer & 1, near, far, aimed);
    offer_flat(hop, v - oe, m >> 5 & 1, to, nearer >> 1 & 1, near, far, aimed);
    offer_flat(hop, v - os, m >> 6 & 1, to, nearer >> 2 & 1, near, far, aimed);
    offer_flat(hop, v - ow, m >> 7 & 1, to, nearer >> 3, near, far, aimed);
    return lower;
}

/* The same in tiles, v at (x, y), index kv of tile pv: v's neighbours
 * N, E, S, W where a step leads out of v to it (bit d of m) or from it
 * into v (bit 4 + (d ^ 2)), else v itself (near_of).  -1 when a tile
 * could not be made (out of memory). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int step_tiled(ff_hoptiles *tiles, uint32_t v, uint32_t x, uint32_t y, ff_hoptile *pv, unsigned kv,
                             uint32_t hv, unsigned m, uint32_t to, unsigned nearer, uint32_t **near, uint32_t **far,
                             int aimed)
{
    near_cell nb[4];
    unsigned lower;
    near_of(tiles, &nb[0], v, x, y, pv, m & 0x41, 0, -1, (kv >> FF_HOPTILE_SHIFT) == 0);
    near_of(tiles, &nb[1], v, x, y, pv, m & 0x82, 1, 0, (kv & (FF_HOPTILE_SIDE - 1)) == FF_HOPTILE_SIDE - 1);
    near_of(tiles, &nb[2], v, x, y, pv, m & 0x14, 0, 1, (kv >> FF_HOPTILE_SHIFT) == FF_HOPTILE_SIDE - 1);
    near_of(tiles, &nb[3], v, x, y, pv, m & 0x28, -1, 0, (kv & (FF_HOPTILE_SIDE - 1)) == 0);
    lower = (m & 1 & (ff_hoptile_get(nb[0].tile, nb[0].k) < hv)) |
            (m & 2 & (unsigned)(ff_hoptile_get(nb[1].tile, nb[1].k) < hv) << 1) |
            (m & 4 & (unsigned)(ff_hoptile_get(nb[2].tile, nb[2].k) < hv) << 2) |
            (m & 8 & (unsigned)(ff_hoptile_get(nb[3].tile, nb[3].k) < hv) << 3);
    /* (bit 4 + d: the neighbour v - off[d] steps d into v) */
    if (offer(tiles, &nb[2], m >> 4 & 1, to, nearer & 1, near, far, aimed) < 0 ||
        offer(tiles, &nb[3], m >> 5 & 1, to, nearer >> 1 & 1, near, far, aimed) < 0 ||
        offer(tiles, &nb[0], m >> 6 & 1, to, nearer >> 2 & 1, near, far, aimed) < 0 ||
        offer(tiles, &nb[1], m >> 7 & 1, to, nearer >> 3, near, far, aimed) < 0)
        return -1;
    return (int)lower;
}

/* The search of field f (see ff_goalfield) on a grid of w x h cells and
 * 4 moves whose open cells all cost the same, from the profile's steps
 * out of and into each cell (steps: see ff_goalfields): taken on from
 * where it stopped until cell has left the open set (its code is set) or
 * the open set is empty, or to the end when cell is FF_GOALFIELD_NONE.
 * It counts hops, and cost t->cost[h] of h hops is the sum of h step
 * costs added one at a time as ff_search's uniform search adds them, so
 * the same distances bit for bit.  A cell's code is set as it leaves the
 * open set, when every cell of one hop fewer has left before it (the
 * heuristic is consistent: a cell of one hop fewer has f at most the
 * cell's, and when equal fewer hops; without an aim, every f is its hop
 * count: breadth first): the first legal step in code order to a lower
 * hop count (a cell of h - 1 hops: a cell not yet taken may hold more
 * hops than it will, never fewer, and no legal step goes lower), which is
 * ff_direction_field's rule here (such a step is tight and lowers the
 * distance, and no other is tight while the largest distance times
 * FF_TIGHT_REL stays under half a step: uniform_bfs_ok).  A neighbour u =
 * v - off[d] of v that steps in direction d into v is offered v's hops +
 * 1, and joins open[1] when that is fewer than it has and the step lowers
 * the heuristic, open[2] when it raises it (without an aim, open[0], the
 * queue it is taken from: one queue, breadth first).  On maps of fewer
 * than 65,535 cells the counts are a plane of 16-bit counts read and
 * written without a branch on the map's cells (they would be guessed
 * wrong half the time): every neighbour's count is read, and written
 * back unless it is lowered; the plane has a margin of w + 1 cells
 * (unreached) before and after the map, where the neighbours of its
 * first and last rows fall.  On larger maps they are in tiles
 * (hoptiles.h), read and written by a cell's coordinates, a neighbour
 * where no step leads standing in for v itself; a tile is made when a
 * count is first offered in it.  One body for both layouts and with or
 * without an aim (tiled, aimed: constants in each caller).  -1 when a
 * queue could not grow or a tile be made (out of memory), else 0. */
/* (written out in each caller, so that tiled and aimed fold) */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int search_body(ff_goalfield *f, ff_hopcost *t, const uint8_t *steps, int32_t w, uint32_t cell,
                              const int tiled, const int aimed)
{
    ff_hoptiles *tiles = f->tiles;
    uint16_t *hop = f->hop;
    uint8_t *dir = f->direction;
    const uint32_t uw = (uint32_t)w, ax = (uint32_t)f->aim_x, ay = (uint32_t)f->aim_y;
    uint32_t len = t->len;
    uint64_t pops = f->pops;
    int st = 0;
    /* (the queues' ends kept here, as pointers: the codes' bytes may
     * alias anything; without an aim, one queue, open[0], its cells
     * offered at its own end: breadth first) */
    uint32_t *pc = f->open[0].cell + f->open[0].head, *ec = f->open[0].cell + f->open[0].tail;
    uint32_t *pn = f->open[1].cell + f->open[1].head, *en = f->open[1].cell + f->open[1].tail;
    uint32_t *ex = f->open[2].cell + f->open[2].tail, **far = aimed ? &ex : &ec;
    uint32_t *lc = f->open[0].cell + f->open[0].cap - 4;
    uint32_t *ln = f->open[1].cell + f->open[1].cap - 4, *lx = f->open[2].cell + f->open[2].cap - 4;

    if (cell != FF_GOALFIELD_NONE && dir[cell] != FF_DIR_NONE)
        return 0;  /* (final: the search stops when it codes cell) */
    for (;;) {
        uint32_t v, hv, to, x, y;
        unsigned m, lower, nearer, kv;
        ff_hoptile *pv;
        if (pc == ec && (!aimed || pn == en)) {
            /* the next f: its first queue the one offered to */
            ff_goalqueue q = f->open[0];
            if (!aimed || ex == f->open[2].cell)
                break;
            f->open[0] = f->open[2];
            f->open[2] = q;
            pc = f->open[0].cell;
            ec = ex;
            pn = en = f->open[1].cell;
            ex = q.cell;
            lx = q.cell + q.cap - 4;
        }
        if (aimed ? en > ln || ex > lx : ec > lc) {
            queues_put(f, pc, ec, pn, en, ex);
            if (aimed ? queue_room(&f->open[1]) < 0 || queue_room(&f->open[2]) < 0 : queue_room(&f->open[0]) < 0) {
                st = -1;
                break;
            }
            pc = f->open[0].cell;
            ec = pc + f->open[0].tail;
            lc = pc + f->open[0].cap - 4;
            pn = f->open[1].cell;
            en = pn + f->open[1].tail;
            ln = pn + f->open[1].cap - 4;
            ex = f->open[2].cell + f->open[2].tail;
            lx = f->open[2].cell + f->open[2].cap - 4;
        }
        /* (the fewer hops first; an entry offered again reads its fewer) */
        if (!aimed || (pc < ec && (pn == en || count_of(f, *pc, tiled) <= count_of(f, *pn, tiled))))
            v = *pc++;
        else
            v = *pn++;
        pops++;
        x = y = 0;
        if (tiled || aimed) {
            y = tiled ? ff_hoptiles_row(tiles, v) : v / uw;
            x = v - y * uw;
        }
        pv = NULL;
        kv = 0;
        if (tiled) {
            pv = *ff_hoptiles_slot(tiles, x, y);
            kv = ff_hoptile_index(x, y);
            hv = ff_hoptile_get(pv, kv);
        } else {
            hv = hop[v];
        }
        to = hv + 1;
        if (to == len) {  /* (the first to reach that far) */
            t->cost[to] = t->cost[hv] + t->step;
            len++;
        }
        /* the steps into v that lower the heuristic (bit d: the step in
         * direction d into v, from v - off[d]) */
        nearer = 0;
        if (aimed)
            nearer = (unsigned)(y < ay) | (unsigned)(x > ax) << 1 | (unsigned)(y > ay) << 2 | (unsigned)(x < ax) << 3;
        m = steps[v];
        if (!tiled) {
            lower = step_flat(hop, v, hv, m, to, nearer, (size_t)w, &en, far, aimed);
        } else {
            int r = step_tiled(tiles, v, x, y, pv, kv, hv, m, to, nearer, &en, far, aimed);
            if (r < 0) {
                st = -1;
                break;
            }
            lower = (unsigned)r;
        }
        /* (the goal has no step lower; every other cell one, the step it
         * was reached by) */
        if (lower) {
            dir[v] = (uint8_t)__builtin_ctz(lower);
            if (v == cell)
                break;
        }
    }
    t->len = len;
    f->pops = pops;
    queues_put(f, pc, ec, pn, en, ex);
    if (pc == ec && pn == en && ex == f->open[2].cell)
        queues_free(f);  /* whole: the queues are done with */
    return st;
}

static int bfs16(ff_goalfield *f, ff_hopcost *t, const uint8_t *steps, int32_t w, uint32_t cell)
{
    return search_body(f, t, steps, w, cell, 0, 0);
}

static int bfs_tiled(ff_goalfield *f, ff_hopcost *t, const uint8_t *steps, int32_t w, uint32_t cell)
{
    return search_body(f, t, steps, w, cell, 1, 0);
}

static int astar16(ff_goalfield *f, ff_hopcost *t, const uint8_t *steps, int32_t w, uint32_t cell)
{
    return search_body(f, t, steps, w, cell, 0, 1);
}

static int astar_tiled(ff_goalfield *f, ff_hopcost *t, const uint8_t *steps, int32_t w, uint32_t cell)
{
    return search_body(f, t, steps, w, cell, 1, 1);
}

/* 1 when the search of hop counts gives a field of grid g (4 moves, every
 * open cell of cost c0 > 0) bit for bit: a step of cost so > 0 that no sum
 * of fewer than n of them leaves unchanged, and distances (under n steps)
 * times FF_TIGHT_REL under half a step, so that only a step to a cell of
 * one hop fewer is tight. */
static int uniform_bfs_ok(size_t n, double so)
{
    return so > 0 && so < INFINITY && n < ((size_t)1 << 28) && (double)n * FF_TIGHT_REL < 0.25 &&
           (double)n * so < INFINITY && (double)n * so + so != (double)n * so;
}

/* The step cost of a search by hop counts of a field on grid g of n
 * cells whose open cells all cost c0 (uniform_cost's: 0 when they
 * differ), as ff_search's uniform search adds it; 0 when its fields are
 * not searched so (not 4 moves, costs that differ, or uniform_bfs_ok
 * says no). */
static double hop_step(const ff_grid *g, float c0, size_t n)
{
    double so;
    if (g->moves != 4 || !(c0 > 0))
        return 0;
    so = ff_step_length(0) * g->cell_size * 0.5 * ((double)c0 + (double)c0);
    return uniform_bfs_ok(n, so) ? so : 0;
}

uint64_t ff_goalfields_field_bytes(const ff_grid *g)
{
    size_t n = (size_t)g->w * (size_t)g->h;
    if (hop_step(g, uniform_cost(g), n) == 0)
        return (uint64_t)n * (sizeof(double) + 1);
    if (n < UINT16_MAX)  /* (hopcost_for's tiled) */
        return (uint64_t)n * (sizeof(uint16_t) + 1);
    return n + ff_hoptiles_bound((uint32_t)g->w, (uint32_t)g->h);
}

void ff_goalfields_grow(ff_goalfields *s, const ff_profiles *p, uint32_t index, uint32_t cell)
{
    ff_goalfield *f = &s->field[index];
    const ff_profile *pf = &p->profile[f->profile];
    ff_hopcost *t;
    size_t bytes;

    /* (a cell the profile closes is never reached: +inf is final; a
     * field that grows is built for its profile's field id, as are the
     * profile's steps) */
    if (!f->searching || (cell != FF_GOALFIELD_NONE && !ff_grid_open(&pf->grid, cell)))
        return;
    if (f->aim == FF_GOALFIELD_NONE && cell != FF_GOALFIELD_NONE) {
        /* (the first cell asked for: the aim from now on) */
        f->aim = cell;
        f->aim_x = (int32_t)(cell % (uint32_t)pf->grid.w);
        f->aim_y = (int32_t)(cell / (uint32_t)pf->grid.w);
    }
    t = f->hops;
    bytes = t->tiled ? ff_hoptiles_bytes(f->tiles) : 0;
    if ((f->aim == FF_GOALFIELD_NONE ? t->tiled ? bfs_tiled : bfs16 : t->tiled ? astar_tiled : astar16)(
            f, t, s->steps[f->profile], pf->grid.w, cell) < 0)
        s->nomem = 1;
    if (t->tiled)
        s->build_bytes += ff_hoptiles_bytes(f->tiles) - bytes;  /* (the tiles it made) */
}

ff_status ff_goalfields_status(const ff_goalfields *s, ff_error *err)
{
    return s->nomem ? ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for goal fields") : FF_OK;
}

void ff_goalfields_settle_steps(ff_goalfields *s, const ff_profiles *p, uint32_t index,
                                const ff_grid *g, uint32_t cell)
{
    const ff_profile *pf = &p->profile[s->field[index].profile];
    unsigned steps;
    int x, y, d;

    if (!ff_goalfields_lazy(s, index))
        return;
    ff_goalfields_settle(s, p, index, cell);
    if (ff_grid_open(&pf->grid, cell)) {
        /* A neighbour u that steps into cell, taken (coded; but the goal
         * is coded before it is taken), was offered cell's hops + 1 then,
         * and that is its count: if it had fewer hops (one less, or
         * more less: the grid's parity), its key (f, hops) would be below
         * cell's (the heuristic changes by one a step), and it would have
         * been taken first; a count only falls to the true one.  Its
         * cost is final, its code not yet: the readers read the code of
         * cell alone. */
        unsigned into = cell == s->field[index].goal ? 0 : s->steps[s->field[index].profile][cell] >> 4;
        /* (bit d < 4: the neighbour in direction d steps back into cell,
         * in direction d ^ 2: the step back from N is S) */
        unsigned back = (into >> 2 & 3u) | (into & 3u) << 2;
        for (steps = pf->step_mask[cell] & ~back; steps; steps &= steps - 1) {
            d = __builtin_ctz(steps);
            ff_goalfields_settle(s, p, index,
                                 (uint32_t)((ptrdiff_t)cell + (ptrdiff_t)ff_dir_dy[d] * g->w + ff_dir_dx[d]));
        }
        return;
    }
    x = (int)(cell % (uint32_t)g->w);
    y = (int)(cell / (uint32_t)g->w);
    for (d = 0; d < 8; d++)
        if (ff_grid_step_ok(g, x, y, d))
            ff_goalfields_settle(s, p, index, (uint32_t)((y + ff_dir_dy[d]) * g->w + x + ff_dir_dx[d]));
}

/* The costs of hop counts of step cost so on grids of n cells (hop
 * counts under n: room for n + 1), shared by every field of that step
 * and size; NULL when out of memory. */
static ff_hopcost *hopcost_for(ff_goalfields *s, double so, size_t n)
{
    ff_hopcost *t, **all;
    size_t k;

    for (k = 0; k < s->nhopcost; k++)
        if (memcmp(&s->hopcost[k]->step, &so, sizeof so) == 0 && s->hopcost[k]->cap == n + 1)
            return s->hopcost[k];
    all = realloc(s->hopcost, (s->nhopcost + 1) * sizeof *all);
    if (!all)
        return NULL;
    s->hopcost = all;
    t = malloc(sizeof *t);
    if (!t || !(t->cost = malloc((n + 1) * sizeof *t->cost))) {  /* (filled as far as reached) */
        free(t);
        return NULL;
    }
    t->cap = n + 1;
    t->len = 1;
    t->cost[0] = 0;
    t->tiled = n >= UINT16_MAX;
    t->step = so;
    s->hopcost[s->nhopcost++] = t;
    return t;
}

/* The steps out of and into each cell of profile pf (index profile; see
 * ff_goalfields), made for its field id when they are not.  -1: no
 * memory. */
static int steps_for(ff_goalfields *s, const ff_profile *pf, int32_t profile)
{
    size_t n = (size_t)pf->grid.w * (size_t)pf->grid.h, u;
    /* (the offsets of codes N, E, S, W: ff_dir_dx, ff_dir_dy) */
    const ptrdiff_t off[4] = { -(ptrdiff_t)pf->grid.w, 1, pf->grid.w, -1 };
    uint8_t *io;
    unsigned b;

    if ((size_t)profile >= s->nsteps) {
        size_t m = (size_t)profile + 1, k;
        uint8_t **steps = realloc(s->steps, m * sizeof *steps);
        uint64_t *id;
        if (!steps)
            return -1;
        s->steps = steps;
        if (!(id = realloc(s->steps_id, m * sizeof *id)))
            return -1;
        s->steps_id = id;
        for (k = s->nsteps; k < m; k++)
            s->steps[k] = NULL;
        s->nsteps = m;
    }
    if (s->steps[profile] && s->steps_id[profile] == pf->id)
        return 0;
    if (!s->steps[profile] && !(s->steps[profile] = malloc(n)))
        return -1;
    io = s->steps[profile];
    for (u = 0; u < n; u++)
        io[u] = pf->step_mask[u] & 15;
    /* (a legal step stays in the map: no coordinates) */
    for (u = 0; u < n; u++)
        for (b = pf->step_mask[u] & 15u; b; b &= b - 1) {
            int d = __builtin_ctz(b);
            io[(size_t)((ptrdiff_t)u + off[d])] |= (uint8_t)(16u << d);
        }
    s->steps_id[profile] = pf->id;
    return 0;
}

/* Field f's block of bytes (its cost and codes).  -1: no memory. */
static int reserve_block(ff_goalfield *f, size_t bytes)
{
    if (f->block_bytes != bytes) {
        unsigned char *m = realloc(f->block, bytes);
        if (!m)
            return -1;
        f->block = m;
        f->block_bytes = bytes;
    }
    return 0;
}

/* Field f's tiles of hop counts, every cell unreached, when its hop
 * counts are in tiles (tiled) on a w x h grid; else none (their index kept, so that
 * a view of them taken before stays one of an unreached field).  -1: no
 * memory. */
static int tiles_for(ff_goalfield *f, int tiled, int32_t w, int32_t h)
{
    if (f->tiles) {
        ff_hoptiles_clear(f->tiles, f->goal);
        return 0;
    }
    if (!tiled)
        return 0;
    if (!(f->tiles = malloc(sizeof *f->tiles)))
        return -1;
    if (ff_hoptiles_init(f->tiles, (uint32_t)w, (uint32_t)h, f->goal) < 0) {
        free(f->tiles);
        f->tiles = NULL;
        return -1;
    }
    return 0;
}

ff_status ff_goalfields_ensure(ff_goalfields *s, ff_profiles *p, uint32_t index, ff_error *err)
{
    ff_goalfield *f = &s->field[index];
    const ff_profile *pf = &p->profile[f->profile];
    size_t n = (size_t)pf->grid.w * (size_t)pf->grid.h, k, cell_bytes, margin, cost_bytes;
    ff_grid g;
    uint32_t goal = f->goal;
    double so = 0;
    int bfs = 0, tiled;
    ff_hopcost *t = NULL;
    ff_status st;

    if (pf->stale || (f->built && f->built_id == pf->id))
        return FF_OK;
    /* The profile's grid (its clearance, the current map) with this one
     * goal: a goal its clearance closes has no field. */
    g = pf->grid;
    g.goals = &goal;
    g.ngoals = ff_grid_open(&pf->grid, goal) ? 1 : 0;
    if (g.ngoals && g.moves == 4) {
        if (s->cost_profile != f->profile || s->cost_id != pf->id) {
            s->cost_uniform = uniform_cost(&g);
            s->cost_profile = f->profile;
            s->cost_id = pf->id;
        }
        so = hop_step(&g, s->cost_uniform, n);
        bfs = so > 0;
    }
    queues_free(f);
    f->aim = FF_GOALFIELD_NONE;
    f->pops = 0;
    if (bfs && (!(t = hopcost_for(s, so, n)) || steps_for(s, pf, f->profile) < 0 ||
                queues_new(f, queue_first(pf->grid.w, pf->grid.h)) < 0))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for goal fields");
    /* One block: the cost (doubles, or 16-bit hop counts with a margin
     * of w + 1 cells each side for the search; none when in tiles),
     * then the codes. */
    tiled = bfs && t->tiled;
    cell_bytes = !bfs ? sizeof(double) : sizeof(uint16_t);
    margin = bfs ? (size_t)pf->grid.w + 1 : 0;
    cost_bytes = tiled ? 0 : (n + 2 * margin) * cell_bytes;
    if (reserve_block(f, cost_bytes + n) < 0 || tiles_for(f, tiled, pf->grid.w, pf->grid.h) < 0)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for goal fields");
    f->hops = t;
    f->hop = bfs && !tiled ? (uint16_t *)(void *)(f->block + margin * cell_bytes) : NULL;
    f->distance = bfs ? NULL : (double *)(void *)f->block;
    f->direction = f->block + cost_bytes;
    if (bfs) {
        /* Its first cell: the rest when asked for (lazily), or now. */
        memset(f->block, 0xff, cost_bytes);  /* (all ones: unreached) */
        memset(f->direction, FF_DIR_NONE, n);
        if (tiled && ff_hoptiles_put(f->tiles, goal, 0) < 0)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for goal fields");
        if (!tiled)
            ((uint16_t *)f->hop)[goal] = 0;
        f->direction[goal] = FF_DIR_GOAL;
        f->open[0].cell[f->open[0].tail++] = goal;
        f->searching = 1;
        s->build_bytes += (tiled ? ff_hoptiles_bytes(f->tiles) : cost_bytes) + n;
        if (!s->lazy) {
            ff_goalfields_grow(s, p, index, FF_GOALFIELD_NONE);
            if ((st = ff_goalfields_status(s, err)) != FF_OK)
                return st;
        }
    } else if (g.ngoals == 0) {
        for (k = 0; k < n; k++) {
            f->distance[k] = INFINITY;
            f->direction[k] = FF_DIR_NONE;
        }
    } else if ((st = ff_search(&g, f->distance, err)) != FF_OK ||
               (st = ff_direction_field(&g, f->distance, f->direction, err)) != FF_OK) {
        return st;
    }
    if (!bfs)
        s->build_bytes += cost_bytes + n;
    f->built = 1;
    f->built_id = pf->id;
    s->builds++;
    return FF_OK;
}
