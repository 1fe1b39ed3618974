/* search.c - the distance field; see search.h.
 *
 * Speed (tests/bench/bench_ffbuild.sh measures it on a 4096x4096 map): one
 * pass over the map sets the distances to +inf, finds the cost range and
 * gives each cell an entry mask, bit d set when the step into it in
 * direction d (from the cell at -step(d)) is legal.  Out-of-map, blocked,
 * one-way, class and corner rules are folded into the masks once, so the
 * search loops test one bit per step and never a bound.  A cell's mask is
 * cleared when it settles, which is how a stale queue entry is told, so
 * no settled bitmap is needed; the search's own memory is one byte a cell
 * and the queue.
 *
 * The distances and the masks are asked for transparent huge pages: that
 * took a fifth off the uniform search's time, mostly the first pass's page
 * faults.  On a large map the first pass runs in two
 * threads, each half the rows (the same result: each writes its own rows).
 * The search loops name the eight neighbours as v + W, v - 1, ... (W the
 * width), which leaves registers free, and report a failed push through
 * the ring, once a bucket.
 *
 * Tried and dropped: a two-thread bucket search (stripes of rows owned by
 * each thread, messages across the stripe edges, the buckets in lockstep;
 * the same distances, but on this shared two-core machine the barrier
 * between buckets, thousands of them, made it 1.5 to 2 times slower than
 * one thread).
 */
#define _DEFAULT_SOURCE  /* sysconf(_SC_NPROCESSORS_ONLN) */
#include "search.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hugepage.h"
#include "searchcore.h"

/* ---- the first pass: distances, cost range, entry masks ---- */

static uint64_t load8(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Entry masks of one row of a map without terrain classes, eight cells at
 * a time: up, mid and down hold 0 or 1 a byte (open or not; the byte
 * before x = 0 and the bytes after x = w - 1 are 0), for the rows above,
 * at and below.  Bytes never carry into each other: every byte is 0 or 1
 * until the final shifts, which stay below 0x100. */
static void entry_row_open(const uint8_t *up, const uint8_t *mid, const uint8_t *down,
                           size_t w, int moves, int corners, uint8_t *out)
{
    size_t x;

    for (x = 0; x < w; x += 8) {
        uint64_t ul = load8(up + x), u = load8(up + x + 1), ur = load8(up + x + 2);
        uint64_t ml = load8(mid + x), c = load8(mid + x + 1), mr = load8(mid + x + 2);
        uint64_t dl = load8(down + x), d = load8(down + x + 1), dr = load8(down + x + 2);
        uint64_t m, ne, se, sw, nw;
        /* The step into this cell in direction N comes from the cell below
         * it, E from the left, S from above, W from the right, NE from
         * below left, and so on; a diagonal's side cells are the two
         * orthogonal neighbours between. */
        m = d | ml << 1 | u << 2 | mr << 3;
        if (moves == 8) {
            if (corners == FF_CORNERS_STRICT) {
                ne = d & ml; se = u & ml; sw = u & mr; nw = d & mr;
            } else if (corners == FF_CORNERS_CUT) {
                ne = d | ml; se = u | ml; sw = u | mr; nw = d | mr;
            } else {
                ne = se = sw = nw = 0x0101010101010101u;
            }
            m |= (dl & ne) << 4 | (ul & se) << 5 | (ur & sw) << 6 | (dr & nw) << 7;
        }
        m &= c * 0xFFu;  /* a blocked cell has no entry */
        if (w - x >= 8) {
            memcpy(out + x, &m, 8);
        } else {
            uint8_t last[8];
            memcpy(last, &m, 8);
            memcpy(out + x, last, w - x);
        }
    }
}

/* The same for a map with terrain classes, one cell at a time: key is 0
 * for a blocked cell, else 1 + its class, and a step is legal when every
 * cell it needs has the key of the cell it enters. */
static void entry_row_classes(const uint16_t *up, const uint16_t *mid, const uint16_t *down,
                              size_t w, int moves, int corners, uint8_t *out)
{
    size_t x;

    for (x = 0; x < w; x++) {
        unsigned k = mid[x + 1];
        unsigned ul = up[x] == k, u = up[x + 1] == k, ur = up[x + 2] == k;
        unsigned ml = mid[x] == k, mr = mid[x + 2] == k;
        unsigned dl = down[x] == k, d = down[x + 1] == k, dr = down[x + 2] == k;
        unsigned m = d | ml << 1 | u << 2 | mr << 3, ne, se, sw, nw;
        if (moves == 8) {
            if (corners == FF_CORNERS_STRICT) {
                ne = d & ml; se = u & ml; sw = u & mr; nw = d & mr;
            } else if (corners == FF_CORNERS_CUT) {
                ne = d | ml; se = u | ml; sw = u | mr; nw = d | mr;
            } else {
                ne = se = sw = nw = 1;
            }
            m |= (dl & ne) << 4 | (ul & se) << 5 | (ur & sw) << 6 | (dr & nw) << 7;
        }
        out[x] = k ? (uint8_t)m : 0;
    }
}

/* What one share of the first pass does: rows [y0, y1) of the map. */
typedef struct {
    const ff_grid *g;
    double *dist;
    uint8_t *in;
    size_t y0, y1;
    cost_range range;
    int failed;        /* out of memory */
} pass_share;

/* The first pass over rows [y0, y1), row by row: set their distances to
 * +inf, find their open cells' cost range, and fill in[i] with the entry
 * mask of each of their cells i, bit d set when the forward step u -> i in
 * direction d is legal (ff_grid_step_ok(g, u, d) with u = i - step(d)).
 * The rows y0 - 1 and y1 are read for their keys only.  Shares of
 * different rows write different cells, so they can run at once. */
static void *first_pass_rows(void *arg)
{
    pass_share *sh = arg;
    const ff_grid *g = sh->g;
    double *dist = sh->dist;
    uint8_t *in = sh->in;
    size_t w = (size_t)g->w, h = (size_t)g->h, x, t;
    /* Three rows of keys with a zero cell on each side, and room for the
     * eight-cell loads to run past the end. */
    size_t row_len = w + 10, rows = sh->y1 - sh->y0 + 2;
    void *buf = calloc(3 * row_len, g->terrain ? sizeof(uint16_t) : 1);
    float cmin = INFINITY, cmax = 0;
    int r;

    if (!buf) {
        sh->failed = 1;
        return NULL;
    }
    /* Row y = y0 - 1 + t is read at step t: after reading it, rows y - 2,
     * y - 1 and y are at hand and row y - 1 is emitted. */
    for (t = 0; t < rows; t++) {
        size_t y = sh->y0 + t - 1;  /* wraps to SIZE_MAX above the map */
        int down_row = (int)(t % 3), mid_row = (int)((t + 2) % 3), up_row = (int)((t + 1) % 3);
        if (y < h) {
            const float *cost = g->cost + y * w;
            uint8_t *open = g->terrain ? NULL : (uint8_t *)buf + down_row * row_len + 1;
            uint16_t *key = g->terrain ? (uint16_t *)buf + down_row * row_len + 1 : NULL;
            if (y >= sh->y0 && y < sh->y1) {
                double *drow = dist + y * w;
                for (x = 0; x < w; x++) {
                    float c = cost[x];
                    drow[x] = INFINITY;
                    if (c <= 3.4e38f) {  /* finite: not +inf, not NaN */
                        cmin = c < cmin ? c : cmin;
                        cmax = c > cmax ? c : cmax;
                    }
                }
            }
            if (open)
                for (x = 0; x < w; x++)
                    open[x] = cost[x] <= 3.4e38f;
            else
                for (x = 0; x < w; x++)
                    key[x] = (uint16_t)(cost[x] <= 3.4e38f ? 1 + g->terrain[y * w + x] : 0);
        } else if (g->terrain) {
            memset((uint16_t *)buf + down_row * row_len, 0, row_len * sizeof(uint16_t));
        } else {
            memset((uint8_t *)buf + down_row * row_len, 0, row_len);
        }
        if (t < 2)
            continue;
        if (g->terrain) {
            const uint16_t *k = buf;
            entry_row_classes(k + up_row * row_len, k + mid_row * row_len,
                              k + down_row * row_len, w, g->moves, g->corners, in + (y - 1) * w);
        } else {
            const uint8_t *k = buf;
            entry_row_open(k + up_row * row_len, k + mid_row * row_len,
                           k + down_row * row_len, w, g->moves, g->corners, in + (y - 1) * w);
        }
    }
    free(buf);
    if (g->oneway) {
        size_t end = sh->y1 * w, i;
        for (i = sh->y0 * w; i < end; i++)
            for (r = 0; r < 8; r++)
                if (in[i] & (1u << r)) {
                    size_t from = (size_t)((ptrdiff_t)i - (ptrdiff_t)ff_dir_dy[r] * (ptrdiff_t)w -
                                           ff_dir_dx[r]);
                    if (!(g->oneway[from] & (1u << r)))
                        in[i] &= (uint8_t)~(1u << r);
                }
    }
    sh->range.cmin = cmin;
    sh->range.cmax = cmax;
    return NULL;
}

/* Maps smaller than this many cells take the first pass in one thread. */
#define PASS_SPLIT_CELLS ((size_t)1 << 20)

/* One pass over the map (first_pass_rows() for all rows), in two threads,
 * each half the rows, when the map is large and a second processor is
 * there; the result is the same either way.  -1 when out of memory. */
int ff_search_first_pass(const ff_grid *g, double *dist, uint8_t *in, cost_range *range)
{
    size_t w = (size_t)g->w, h = (size_t)g->h;
    pass_share sh[2];
    int nsh = 1, k;

    ff_want_huge_pages(dist, w * h * sizeof *dist);
    ff_want_huge_pages(in, w * h);
    sh[0].g = sh[1].g = g;
    sh[0].dist = sh[1].dist = dist;
    sh[0].in = sh[1].in = in;
    sh[0].failed = sh[1].failed = 0;
    sh[0].y0 = 0;
    sh[0].y1 = h;
#if defined(_SC_NPROCESSORS_ONLN)
    if (w * h >= PASS_SPLIT_CELLS && h >= 4 && sysconf(_SC_NPROCESSORS_ONLN) >= 2) {
        pthread_t helper;
        sh[0].y1 = sh[1].y0 = h / 2;
        sh[1].y1 = h;
        if (pthread_create(&helper, NULL, first_pass_rows, &sh[1]) == 0) {
            first_pass_rows(&sh[0]);
            pthread_join(helper, NULL);
            nsh = 2;
        } else {
            sh[0].y1 = h;
        }
    }
#endif
    if (nsh == 1)
        first_pass_rows(&sh[0]);
    range->cmin = INFINITY;
    range->cmax = 0;
    for (k = 0; k < nsh; k++) {
        if (sh[k].failed)
            return -1;
        range->cmin = sh[k].range.cmin < range->cmin ? sh[k].range.cmin : range->cmin;
        range->cmax = sh[k].range.cmax > range->cmax ? sh[k].range.cmax : range->cmax;
    }
    return 0;
}

/* ---- the searches ---- */

/* What every search kind shares. */
typedef struct {
    const ff_grid *g;
    uint8_t *entry;            /* entry masks; a cell's is cleared as it settles */
    double *dist;
    ptrdiff_t from[8];         /* index offset from a cell to the cell that
                                  enters it in direction d: -step(d) */
    double half_len[8];        /* cell_size * length(d) / 2 */
} search_ctx;

/* The cost of the step u -> v in direction d, as ff_grid_step_cost()
 * computes it: the same operations in the same order, so both round
 * alike. */
static inline double step_cost(const search_ctx *ctx, int d, size_t u, double cost_v)
{
    return ctx->half_len[d] * ((double)ctx->g->cost[u] + cost_v);
}

/* Take cell v from a queue: 0 when it was settled already (a stale entry)
 * or nothing enters it; else its entry mask, which is cleared, so that v is
 * settled from now on. */
static inline unsigned take(uint8_t *entry, size_t v)
{
    unsigned m = entry[v];

    entry[v] = 0;
    return m;
}

/* PREFETCH_ROWS: prefetch array[v] and the cells above and below it (w is
 * the width), which settling cell v reads, PREFETCH_AHEAD places on in a
 * bucket: a settled cell reads its neighbours in three rows, and the
 * bucket says which cells come next.  A macro, because GCC 12 drops the
 * prefetches of an inline function.  The rows above and below are reached
 * through integer arithmetic: at the map's edge they lie outside the
 * array, which a prefetch may touch but C pointer arithmetic may not. */
#if defined(__GNUC__)
#define PREFETCH_ROWS(array, v, w)                                               \
    do {                                                                        \
        uintptr_t p_ = (uintptr_t)((array) + (v)), row_ = (w) * sizeof *(array); \
        __builtin_prefetch((const void *)(p_ - row_));                          \
        __builtin_prefetch((const void *)p_);                                   \
        __builtin_prefetch((const void *)(p_ + row_));                          \
    } while (0)
#else
#define PREFETCH_ROWS(array, v, w) ((void)0)
#endif

/* The uniform search's relaxation of the step into v in direction d, when
 * bit d of v's entry mask m is set: to is the distance through v, t the
 * bucket of to.  Written out once per direction (d is a constant in each
 * call) so that each direction's branches are predicted on their own. */
static inline void relax_uniform(ring *r, double *dist, size_t v, unsigned m, int d,
                                 ptrdiff_t from, double to, bucket *t)
{
    size_t u = (size_t)((ptrdiff_t)v + from);

    if (!(m >> d & 1) || !(to < dist[u]))
        return;
    dist[u] = to;
    ring_push(r, t, u);
}

/* Every open cell costs the same: a step costs so orthogonally and sd
 * diagonally, the least step is so, and each cell's two kinds of step end
 * in one bucket each.  This loop is where ffbuild spends its time. */
static ff_status search_uniform(const search_ctx *ctx, ring *ring_in, double so, double sd)
{
    /* A local copy of the ring: the byte stores into entry[] cannot reach
     * it, so its fields stay in registers. */
    ring local = *ring_in, *r = &local;
    uint8_t *entry = ctx->entry;
    double *dist = ctx->dist;
    /* The cells that enter v, v + ctx->from[d], are v + W, v - 1, v - W,
     * v + 1, v + W - 1, v - W - 1, v - W + 1 and v + W + 1 (ff_dir_dx
     * and ff_dir_dy): written so, the compiler folds them into its
     * addressing and keeps only W in a register. */
    const ptrdiff_t W = (ptrdiff_t)ctx->g->w;
    size_t w = (size_t)ctx->g->w, empty_run = 0;

    while (empty_run <= r->mask) {
        bucket *b = &r->slot[r->cur & r->mask];
        size_t j;
        empty_run = b->n ? 0 : empty_run + 1;
        for (j = 0; j < b->n; j++) {
            size_t v = b->cell[j];
            unsigned m;
            double dv, to_o, to_d;
            bucket *bo, *bd;
            if (j + PREFETCH_AHEAD < b->n) {
                PREFETCH(entry + b->cell[j + PREFETCH_AHEAD]);
                PREFETCH_ROWS(dist, b->cell[j + PREFETCH_AHEAD], w);
            }
            if (!(m = take(entry, v)))
                continue;
            dv = dist[v];
            to_o = dv + so;
            to_d = dv + sd;
            bo = ring_bucket(r, to_o);
            bd = ring_bucket(r, to_d);
            relax_uniform(r, dist, v, m, 0, W, to_o, bo);
            relax_uniform(r, dist, v, m, 1, -1, to_o, bo);
            relax_uniform(r, dist, v, m, 2, -W, to_o, bo);
            relax_uniform(r, dist, v, m, 3, 1, to_o, bo);
            relax_uniform(r, dist, v, m, 4, W - 1, to_d, bd);
            relax_uniform(r, dist, v, m, 5, -W - 1, to_d, bd);
            relax_uniform(r, dist, v, m, 6, -W + 1, to_d, bd);
            relax_uniform(r, dist, v, m, 7, W + 1, to_d, bd);
        }
        if (r->failed)
            return FF_ENOMEM;
        b->n = 0;
        r->cur++;
    }
    return FF_OK;
}

/* The weighted search's relaxation of the step into v in direction d,
 * when bit d of v's entry mask m is set.  Written out once per direction
 * (d is a constant in each call) so that each direction's branches are
 * predicted on their own. */
static ALWAYS_INLINE void relax_weighted(ring *r, uint8_t *entry, double *dist,
                                         const float *cost, size_t v, unsigned m, int d,
                                         ptrdiff_t from, double half_len, int both_ways,
                                         double dv, double cv)
{
    size_t u = (size_t)((ptrdiff_t)v + from);
    double to;

    if (!(m >> d & 1))
        return;
    /* A settled cell takes itself out of the entry mask of its
     * neighbour: u need not try the step back, d ^ 2 (the opposite
     * direction), when steps go both ways. */
    if (both_ways)
        entry[u] &= (uint8_t)~(1u << (d ^ 2));
    /* The step cost as ff_grid_step_cost() computes it: the same
     * operations in the same order, so both round alike. */
    to = dv + half_len * ((double)cost[u] + cv);
    if (!(to < dist[u]))
        return;
    dist[u] = to;
    ring_push(r, ring_bucket(r, to), u);
}

/* Positive costs within a ratio of 4096: Dial's algorithm generalised, the
 * buckets as wide as the least step, so every cell of the lowest bucket is
 * final and a bucket needs no order inside.  When every step can be taken
 * both ways (no one-way cells), a settled cell also takes itself out of
 * its neighbours' entry masks, so each step is relaxed once, from the end
 * that settles first. */
static ALWAYS_INLINE ff_status search_buckets(const search_ctx *ctx, ring *ring_in,
                                              int both_ways)
{
    /* A local copy of the ring: the byte stores into entry[] cannot reach
     * it, so its fields stay in registers. */
    ring local = *ring_in, *r = &local;
    uint8_t *entry = ctx->entry;
    double *dist = ctx->dist;
    const float *cost = ctx->g->cost;
    /* The cells that enter v, v + ctx->from[d], are v + W, v - 1, v - W,
     * v + 1, v + W - 1, v - W - 1, v - W + 1 and v + W + 1 (ff_dir_dx
     * and ff_dir_dy): written so, the compiler folds them into its
     * addressing and keeps only W in a register. */
    const ptrdiff_t W = (ptrdiff_t)ctx->g->w;
    const double h0 = ctx->half_len[0], h1 = ctx->half_len[1], h2 = ctx->half_len[2],
                 h3 = ctx->half_len[3], h4 = ctx->half_len[4], h5 = ctx->half_len[5],
                 h6 = ctx->half_len[6], h7 = ctx->half_len[7];
    size_t w = (size_t)ctx->g->w, empty_run = 0;

    while (empty_run <= r->mask) {
        bucket *b = &r->slot[r->cur & r->mask];
        size_t j;
        empty_run = b->n ? 0 : empty_run + 1;
        for (j = 0; j < b->n; j++) {
            size_t v = b->cell[j];
            unsigned m;
            double dv, cv;
            if (j + PREFETCH_AHEAD < b->n) {
                PREFETCH(entry + b->cell[j + PREFETCH_AHEAD]);
                PREFETCH_ROWS(dist, b->cell[j + PREFETCH_AHEAD], w);
                PREFETCH_ROWS(cost, b->cell[j + PREFETCH_AHEAD], w);
            }
            if (!(m = take(entry, v)))
                continue;
            dv = dist[v];
            cv = (double)cost[v];
            relax_weighted(r, entry, dist, cost, v, m, 0, W, h0, both_ways, dv, cv);
            relax_weighted(r, entry, dist, cost, v, m, 1, -1, h1, both_ways, dv, cv);
            relax_weighted(r, entry, dist, cost, v, m, 2, -W, h2, both_ways, dv, cv);
            relax_weighted(r, entry, dist, cost, v, m, 3, 1, h3, both_ways, dv, cv);
            relax_weighted(r, entry, dist, cost, v, m, 4, W - 1, h4, both_ways, dv, cv);
            relax_weighted(r, entry, dist, cost, v, m, 5, -W - 1, h5, both_ways, dv, cv);
            relax_weighted(r, entry, dist, cost, v, m, 6, -W + 1, h6, both_ways, dv, cv);
            relax_weighted(r, entry, dist, cost, v, m, 7, W + 1, h7, both_ways, dv, cv);
        }
        if (r->failed)
            return FF_ENOMEM;
        b->n = 0;
        r->cur++;
    }
    return FF_OK;
}

/* search_buckets() written out for each value of both_ways. */
static ff_status search_buckets_both_ways(const search_ctx *ctx, ring *r)
{
    return search_buckets(ctx, r, 1);
}

static ff_status search_buckets_one_way(const search_ctx *ctx, ring *r)
{
    return search_buckets(ctx, r, 0);
}

/* Zero costs, or costs too spread for buckets: Dijkstra's algorithm with a
 * binary heap. */
static ff_status search_heap(const search_ctx *ctx)
{
    const ff_grid *g = ctx->g;
    heap h = { NULL, 0, 0 };
    size_t k;
    ff_status st = FF_OK;

    for (k = 0; k < g->ngoals && st == FF_OK; k++)
        if (heap_push(&h, 0.0, g->goals[k]) < 0)
            st = FF_ENOMEM;
    while (h.n > 0 && st == FF_OK) {
        size_t v = heap_pop(&h).cell;
        unsigned m = take(ctx->entry, v);
        double dv = ctx->dist[v], cv = (double)g->cost[v];
        int d;
        for (d = 0; m; d++, m >>= 1) {
            size_t u;
            double to;
            if (!(m & 1))
                continue;
            u = (size_t)((ptrdiff_t)v + ctx->from[d]);
            to = dv + step_cost(ctx, d, u, cv);
            if (to < ctx->dist[u]) {
                ctx->dist[u] = to;
                if (heap_push(&h, to, (uint32_t)u) < 0) {
                    st = FF_ENOMEM;
                    break;
                }
            }
        }
    }
    heap_free(&h);
    return st;
}

ff_status ff_search(const ff_grid *g, double *dist, ff_error *err)
{
    size_t n = (size_t)g->w * (size_t)g->h, k;
    uint8_t *entry;
    cost_range range;
    search_ctx ctx;
    ff_status st;
    int d;

    if (g->ngoals == 0)
        return ff_error_set(err, FF_EUSAGE, NULL, 0, 0,
                            "no goal: give -g X,Y, --goals FILE or goal tiles in the map");
    if (n > UINT32_MAX)
        return ff_error_set(err, FF_EINPUT, NULL, 0, 0, "map of %zu cells is too large", n);
    entry = malloc(n);
    if (!entry || ff_search_first_pass(g, dist, entry, &range) < 0) {
        free(entry);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu cells", n);
    }
    for (k = 0; k < g->ngoals; k++)
        dist[g->goals[k]] = 0.0;
    ctx.g = g;
    ctx.entry = entry;
    ctx.dist = dist;
    for (d = 0; d < 8; d++) {
        ctx.from[d] = -((ptrdiff_t)ff_dir_dy[d] * g->w + ff_dir_dx[d]);
        ctx.half_len[d] = ff_step_length(d) * g->cell_size * 0.5;
    }
    if (range.cmin > 0 && range.cmax / range.cmin <= 4096.0f) {
        /* Buckets as wide as the least step (orthogonal, between two cells
         * of the least cost); the ring spans the largest step. */
        double cmin = range.cmin, cmax = range.cmax;
        size_t span = (size_t)ceil(FF_SQRT2 * cmax / cmin) + 2, nb = 1;
        ring r;
        while (nb < span)
            nb *= 2;
        st = ring_init(&r, nb, g->cell_size * cmin) < 0 ? FF_ENOMEM : FF_OK;
        for (k = 0; k < g->ngoals && st == FF_OK; k++)
            if (bucket_push(&r.slot[0], g->goals[k]) < 0)
                st = FF_ENOMEM;
        if (st == FF_OK && cmin == cmax)
            st = search_uniform(&ctx, &r, ctx.half_len[0] * (cmin + cmin),
                                ctx.half_len[4] * (cmin + cmin));
        else if (st == FF_OK)
            st = g->oneway ? search_buckets_one_way(&ctx, &r) : search_buckets_both_ways(&ctx, &r);
        ring_free(&r);
    } else {
        st = search_heap(&ctx);
    }
    free(entry);
    if (st != FF_OK)
        return ff_error_set(err, st, NULL, 0, 0, "out of memory for the search queue");
    return FF_OK;
}
