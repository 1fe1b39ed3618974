/* nearwall.c - the near-wall map: the Chebyshev distance in cells from
 * each cell to the nearest wall, made whole and repaired where a change
 * of the walls can alter it; see walls.h. */
#include "walls.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

struct ff_walls_repair_state {
    uint8_t *raised;      /* w*h bits: the cells given up */
    uint32_t *given_up;   /* those cells, by their entry before */
    size_t ngiven_up, given_up_cap;
    uint32_t *seed;       /* the cells closed and given up, by the value
                             they start the lowering at */
    uint8_t *seed_value;  /* that value, beside each seed */
    size_t nseed, seed_cap, seed_value_cap;
    uint32_t *lowered;    /* cells lowered, in the order lowered */
    size_t nlowered, lowered_cap;
};

static inline int min_near(int a, int b)
{
    return a < b ? a : b;
}

/* What cell (x, y) starts at before any neighbour is looked at: 0 when
 * blocked, else its distance to the outside of the map, capped. */
static inline int start_value(const ff_grid *g, int32_t x, int32_t y)
{
    int d = min_near(min_near(x + 1, g->w - x), min_near(y + 1, g->h - y));
    if (!ff_grid_open(g, (size_t)y * (size_t)g->w + (size_t)x))
        return 0;
    return min_near(d, FF_WALLS_NEAR_MAX);
}

/* The whole map: a Chebyshev distance transform in two raster passes,
 * exact for the 8-neighbour metric with unit weights (Rosenfeld and
 * Pfaltz, 1966).  The forward pass takes the west and the three northern
 * neighbours, the backward one the east and the three southern; the edge
 * columns apart, without bounds tests. */
static void transform(const ff_grid *g, uint8_t *near)
{
    size_t W = (size_t)g->w;
    int32_t x, y;

    for (y = 0; y < g->h; y++) {
        uint8_t *row = near + (size_t)y * W;
        const uint8_t *up = y > 0 ? row - W : NULL;
        for (x = 0; x < g->w; x++) {
            int d = start_value(g, x, y);
            if (d == 0) {
                row[x] = 0;
                continue;
            }
            if (x > 0)
                d = min_near(d, row[x - 1] + 1);
            if (up) {
                d = min_near(d, up[x] + 1);
                if (x > 0)
                    d = min_near(d, up[x - 1] + 1);
                if (x + 1 < g->w)
                    d = min_near(d, up[x + 1] + 1);
            }
            row[x] = (uint8_t)d;
        }
    }
    for (y = g->h - 1; y >= 0; y--) {
        uint8_t *row = near + (size_t)y * W;
        const uint8_t *down = y + 1 < g->h ? row + W : NULL;
        x = g->w - 1;
        {
            /* The east column: no east neighbours. */
            int d = row[x];
            if (down) {
                d = min_near(d, down[x] + 1);
                if (x > 0)
                    d = min_near(d, down[x - 1] + 1);
            }
            row[x] = (uint8_t)d;
        }
        for (x = g->w - 2; x >= 1; x--) {
            int d = min_near(row[x], row[x + 1] + 1);
            if (down)
                d = min_near(min_near(d, down[x] + 1), min_near(down[x - 1], down[x + 1]) + 1);
            row[x] = (uint8_t)d;
        }
        if (g->w > 1) {
            /* The west column: no west neighbours. */
            int d = min_near(row[0], row[1] + 1);
            if (down)
                d = min_near(d, min_near(down[0], down[1]) + 1);
            row[0] = (uint8_t)d;
        }
    }
}

ff_status ff_walls_init(ff_walls *w, const ff_grid *g, ff_error *err)
{
    size_t n = (size_t)g->w * (size_t)g->h;

    w->grid = g;
    w->inv_cell = 1.0 / g->cell_size;
    w->repair = NULL;
    if (!(w->near = malloc(n ? n : 1)))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the wall map");
    transform(g, w->near);
    return FF_OK;
}

static void repair_state_free(ff_walls_repair_state *r)
{
    if (!r)
        return;
    free(r->raised);
    free(r->given_up);
    free(r->seed);
    free(r->seed_value);
    free(r->lowered);
    free(r);
}

void ff_walls_free(ff_walls *w)
{
    free(w->near);
    w->near = NULL;
    repair_state_free(w->repair);
    w->repair = NULL;
}

static inline int is_raised(const ff_walls_repair_state *r, size_t i)
{
    return r->raised[i >> 3] >> (i & 7) & 1;
}

/* The 8 neighbours of cell i inside the map, as cell indices in nb;
 * returns how many. */
static inline int neighbours(const ff_grid *g, size_t i, size_t *nb)
{
    int32_t x = (int32_t)(i % (size_t)g->w), y = (int32_t)(i / (size_t)g->w), dx, dy;
    int k = 0;

    for (dy = -1; dy <= 1; dy++)
        for (dx = -1; dx <= 1; dx++)
            if ((dx || dy) && x + dx >= 0 && x + dx < g->w && y + dy >= 0 && y + dy < g->h)
                nb[k++] = (size_t)(y + dy) * (size_t)g->w + (size_t)(x + dx);
    return k;
}

static inline int start_of(const ff_grid *g, size_t i)
{
    return start_value(g, (int32_t)(i % (size_t)g->w), (int32_t)(i / (size_t)g->w));
}

/* Append cell i to list (*n entries, capacity *cap); -1 when out of
 * memory. */
static int push(uint32_t **list, size_t *n, size_t *cap, size_t i)
{
    if (*n == *cap) {
        uint32_t *q = ff_grow(*list, cap, *n + 1, sizeof *q, 1024);
        if (!q)
            return -1;
        *list = q;
    }
    (*list)[(*n)++] = (uint32_t)i;
    return 0;
}

/* (Listed before marked: a mark is cleared through the list.) */
static int give_up(ff_walls_repair_state *r, size_t i)
{
    if (push(&r->given_up, &r->ngiven_up, &r->given_up_cap, i) < 0)
        return -1;
    r->raised[i >> 3] |= (uint8_t)(1u << (i & 7));
    return 0;
}

/* The changed cells: a closed one set to 0 at once (a wall, whatever
 * else changed) and listed as a seed; an opened one given up.  Then the
 * raise (the dynamic brushfire of Kalra, Ferguson and Stentz, 2009, for
 * the Chebyshev metric): a cell of entry L + 1 beside a cell given up is
 * given up too when no neighbour kept has an entry of at most L and its
 * start value is above L + 1, nothing left that holds it at its entry.
 * In order of the entries before, so that when a cell is looked at its
 * neighbours below it are decided.  0, or -1 when it passes limit cells
 * or memory runs out. */
static int raise_phase(ff_walls *w, ff_walls_repair_state *r, const uint32_t *cells, size_t n,
                       size_t limit)
{
    const ff_grid *g = w->grid;
    uint8_t *near = w->near;
    size_t k, head, nb[8], nb2[8];

    for (k = 0; k < n; k++) {
        size_t c = cells[k];
        int open = ff_grid_open(g, c);
        if (near[c] != 0 && !open) {
            near[c] = 0;
            if (push(&r->seed, &r->nseed, &r->seed_cap, c) < 0)
                return -1;
        } else if (near[c] == 0 && open && !is_raised(r, c) && give_up(r, c) < 0) {
            return -1;
        }
    }
    for (head = 0; head < r->ngiven_up; head++) {
        size_t p = r->given_up[head];
        int level = near[p] + 1, m = neighbours(g, p, nb), j;
        for (j = 0; j < m; j++) {
            size_t q = nb[j];
            int m2, held = 0, i;
            if (is_raised(r, q) || near[q] != level || start_of(g, q) <= level)
                continue;
            m2 = neighbours(g, q, nb2);
            for (i = 0; i < m2 && !held; i++)
                held = near[nb2[i]] < level && !is_raised(r, nb2[i]);
            if (held)
                continue;
            if (r->ngiven_up >= limit || give_up(r, q) < 0)
                return -1;
        }
    }
    return 0;
}

/* The cells given up start at the least of their start value and their
 * kept neighbours' entries plus one; with the closed cells (0) they are
 * the seeds of the lowering, sorted by that value (a counting sort). */
static int seed_phase(ff_walls *w, ff_walls_repair_state *r)
{
    const ff_grid *g = w->grid;
    uint8_t *near = w->near;
    size_t count[FF_WALLS_NEAR_MAX + 2] = { 0 }, k, nb[8];
    uint32_t *sorted;
    int v;

    for (k = 0; k < r->ngiven_up; k++) {
        size_t i = r->given_up[k];
        int m = neighbours(g, i, nb), j;
        v = start_of(g, i);
        for (j = 0; j < m && v > 0; j++)
            if (!is_raised(r, nb[j]))
                v = min_near(v, near[nb[j]] + 1);
        near[i] = (uint8_t)v;
        if (push(&r->seed, &r->nseed, &r->seed_cap, i) < 0)
            return -1;
    }
    if (r->nseed == 0)
        return 0;  /* (cells listed that did not change) */
    if (r->seed_value_cap < r->nseed) {
        uint8_t *q = ff_grow(r->seed_value, &r->seed_value_cap, r->nseed, 1, 1024);
        if (!q)
            return -1;
        r->seed_value = q;
    }
    /* the sorted seeds go behind the unsorted ones */
    if (r->seed_cap < 2 * r->nseed) {
        uint32_t *q = ff_grow(r->seed, &r->seed_cap, 2 * r->nseed, sizeof *q, 1024);
        if (!q)
            return -1;
        r->seed = q;
    }
    for (k = 0; k < r->nseed; k++)
        count[near[r->seed[k]] + 1]++;
    for (v = 1; v <= FF_WALLS_NEAR_MAX + 1; v++)
        count[v] += count[v - 1];
    sorted = r->seed + r->nseed;
    for (k = 0; k < r->nseed; k++) {
        size_t i = r->seed[k], at = count[near[i]]++;
        sorted[at] = (uint32_t)i;
        r->seed_value[at] = near[i];
    }
    memmove(r->seed, sorted, r->nseed * sizeof *r->seed);
    return 0;
}

/* The lowering: Dial's algorithm with unit weights, the seeds in order of
 * their value merged with a queue of the cells lowered (whose values come
 * in the order they are set), each lowering its neighbours above it plus
 * one.  Every entry is at least its true value before (a kept cell's is
 * held by a chain to a wall or an edge still there), so this leaves the
 * least over every cell of start value plus Chebyshev distance, what the
 * whole transform computes.  0, or -1 when it passes limit cells or memory
 * runs out. */
static int lower_phase(ff_walls *w, ff_walls_repair_state *r, size_t limit)
{
    const ff_grid *g = w->grid;
    uint8_t *near = w->near;
    size_t a = 0, qhead = 0, nb[8];

    while (a < r->nseed || qhead < r->nlowered) {
        size_t i;
        int v, m, j;
        if (qhead < r->nlowered && (a == r->nseed || near[r->lowered[qhead]] < r->seed_value[a])) {
            i = r->lowered[qhead++];
        } else {
            i = r->seed[a];
            if (near[i] < r->seed_value[a++])
                continue;  /* lowered since: taken from the queue */
        }
        v = near[i] + 1;
        m = neighbours(g, i, nb);
        for (j = 0; j < m; j++)
            if (near[nb[j]] > v) {
                near[nb[j]] = (uint8_t)v;
                if (r->nlowered >= limit ||
                    push(&r->lowered, &r->nlowered, &r->lowered_cap, nb[j]) < 0)
                    return -1;
            }
    }
    return 0;
}

void ff_walls_repair(ff_walls *w, const uint32_t *cells, size_t n)
{
    const ff_grid *g = w->grid;
    size_t ncells = (size_t)g->w * (size_t)g->h, limit = ncells / 4 + 1, k;
    ff_walls_repair_state *r = w->repair;
    int done;

    if (!r && !(r = w->repair = calloc(1, sizeof *r)))
        goto whole;
    if (!r->raised && !(r->raised = calloc(ncells / 8 + 1, 1)))
        goto whole;
    r->ngiven_up = r->nseed = r->nlowered = 0;
    done = raise_phase(w, r, cells, n, limit) == 0 && seed_phase(w, r) == 0 &&
           lower_phase(w, r, limit) == 0;
    for (k = 0; k < r->ngiven_up; k++)
        r->raised[r->given_up[k] >> 3] = 0;
    if (done)
        return;
whole:
    transform(g, w->near);
}
