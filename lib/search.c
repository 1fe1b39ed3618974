/* search.c - the distance field; see search.h. */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Growable list of cell indices: one bucket. */
typedef struct {
    uint32_t *cell;
    size_t n, cap;
} bucket;

static int bucket_push(bucket *b, uint32_t c)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        uint32_t *p = realloc(b->cell, cap * sizeof *p);
        if (!p)
            return -1;
        b->cell = p;
        b->cap = cap;
    }
    b->cell[b->n++] = c;
    return 0;
}

/* Binary min-heap of (distance, cell) for the general case. */
typedef struct {
    double key;
    uint32_t cell;
} heap_item;

typedef struct {
    heap_item *item;
    size_t n, cap;
} heap;

static int heap_push(heap *h, double key, uint32_t cell)
{
    size_t i;

    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 1024;
        heap_item *p = realloc(h->item, cap * sizeof *p);
        if (!p)
            return -1;
        h->item = p;
        h->cap = cap;
    }
    i = h->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (h->item[parent].key <= key)
            break;
        h->item[i] = h->item[parent];
        i = parent;
    }
    h->item[i].key = key;
    h->item[i].cell = cell;
    return 0;
}

static heap_item heap_pop(heap *h)
{
    heap_item top = h->item[0], last = h->item[--h->n];
    size_t i = 0;

    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->item[c + 1].key < h->item[c].key)
            c++;
        if (last.key <= h->item[c].key)
            break;
        h->item[i] = h->item[c];
        i = c;
    }
    if (h->n > 0)
        h->item[i] = last;
    return top;
}

/* Shared state of both queue kinds. */
typedef struct {
    const ff_grid *g;
    const uint8_t *step_mask;  /* legal forward steps of each cell */
    double *dist;
    ptrdiff_t offset[8];       /* index offset of a step in direction d */
    double half_len[8];        /* cell_size * length(d) / 2 */
} search_ctx;

/* Relax the predecessors of the settled cell v: every cell u with a legal
 * step u -> v whose distance through v improves.  Writes the improved cells
 * and their new distances to cell[] and to_goal[]; returns how many. */
static inline int relax_predecessors(const search_ctx *ctx, uint32_t v,
                                     uint32_t cell[8], double to_goal[8])
{
    const ff_grid *g = ctx->g;
    int x = (int)(v % (uint32_t)g->w), y = (int)(v / (uint32_t)g->w);
    double dv = ctx->dist[v], cv = (double)g->cost[v];
    int d, n = 0;

    for (d = 0; d < g->moves; d++) {
        int ux = x - ff_dir_dx[d], uy = y - ff_dir_dy[d];
        size_t u;
        double nd;
        if (ux < 0 || uy < 0 || ux >= g->w || uy >= g->h)
            continue;
        u = (size_t)((ptrdiff_t)v - ctx->offset[d]);
        if (!(ctx->step_mask[u] & (1u << d)))
            continue;
        nd = dv + ctx->half_len[d] * ((double)g->cost[u] + cv);
        if (nd < ctx->dist[u]) {
            ctx->dist[u] = nd;
            cell[n] = (uint32_t)u;
            to_goal[n++] = nd;
        }
    }
    return n;
}

static ff_status search_buckets(search_ctx *ctx, double width, size_t nbuckets,
                                uint8_t *settled, ff_error *err)
{
    const ff_grid *g = ctx->g;
    bucket *ring = calloc(nbuckets, sizeof *ring);
    size_t pending = 0, k, cur = 0;
    ff_status st = FF_OK;
    double inv = 1.0 / width, to_goal[8];
    uint32_t cell[8];
    int j, m;

    if (!ring)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the search queue");
    for (k = 0; k < g->ngoals; k++) {
        if (bucket_push(&ring[0], g->goals[k]) < 0)
            goto nomem;
        pending++;
    }
    while (pending > 0) {
        bucket *b = &ring[cur % nbuckets];
        while (b->n > 0) {
            uint32_t v = b->cell[--b->n];
            pending--;
            if (settled[v >> 3] & (1u << (v & 7)))
                continue;
            settled[v >> 3] |= (uint8_t)(1u << (v & 7));
            m = relax_predecessors(ctx, v, cell, to_goal);
            for (j = 0; j < m; j++) {
                double q = floor(to_goal[j] * inv);
                size_t slot = q <= (double)cur ? cur : (size_t)q;
                if (bucket_push(&ring[slot % nbuckets], cell[j]) < 0)
                    goto nomem;
                pending++;
            }
        }
        cur++;
    }
    goto done;
nomem:
    st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the search queue");
done:
    for (k = 0; k < nbuckets; k++)
        free(ring[k].cell);
    free(ring);
    return st;
}

static ff_status search_heap(search_ctx *ctx, uint8_t *settled, ff_error *err)
{
    const ff_grid *g = ctx->g;
    heap h = { NULL, 0, 0 };
    size_t k;
    ff_status st = FF_OK;
    double to_goal[8];
    uint32_t cell[8];
    int j, m;

    for (k = 0; k < g->ngoals; k++)
        if (heap_push(&h, 0.0, g->goals[k]) < 0)
            goto nomem;
    while (h.n > 0) {
        heap_item top = heap_pop(&h);
        uint32_t v = top.cell;
        if (settled[v >> 3] & (1u << (v & 7)))
            continue;
        settled[v >> 3] |= (uint8_t)(1u << (v & 7));
        m = relax_predecessors(ctx, v, cell, to_goal);
        for (j = 0; j < m; j++)
            if (heap_push(&h, to_goal[j], cell[j]) < 0)
                goto nomem;
    }
    goto done;
nomem:
    st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the search queue");
done:
    free(h.item);
    return st;
}

ff_status ff_search(const ff_grid *g, double *dist, ff_error *err)
{
    size_t n = (size_t)g->w * (size_t)g->h, i;
    uint8_t *mask = NULL, *settled = NULL;
    double cmin = INFINITY, cmax = 0;
    search_ctx ctx;
    ff_status st;
    int d;

    if (g->ngoals == 0)
        return ff_error_set(err, FF_EUSAGE, NULL, 0, 0,
                            "no goal: give -g X,Y, --goals FILE or goal tiles in the map");
    if (n > UINT32_MAX)
        return ff_error_set(err, FF_EINPUT, NULL, 0, 0, "map of %zu cells is too large", n);
    mask = malloc(n);
    settled = calloc(n / 8 + 1, 1);
    if (!mask || !settled) {
        free(mask);
        free(settled);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu cells", n);
    }
    ff_grid_step_masks(g, mask);
    for (i = 0; i < n; i++) {
        dist[i] = INFINITY;
        if (ff_grid_open(g, i)) {
            if (g->cost[i] < cmin)
                cmin = g->cost[i];
            if (g->cost[i] > cmax)
                cmax = g->cost[i];
        }
    }
    for (i = 0; i < g->ngoals; i++)
        dist[g->goals[i]] = 0.0;
    ctx.g = g;
    ctx.step_mask = mask;
    ctx.dist = dist;
    for (d = 0; d < 8; d++) {
        ctx.offset[d] = (ptrdiff_t)ff_dir_dy[d] * g->w + ff_dir_dx[d];
        ctx.half_len[d] = ff_step_length(d) * g->cell_size * 0.5;
    }
    /* Bucket width: the least possible step cost (an orthogonal step
     * between two cells of the least cost).  The ring must span the largest
     * step so that no two live buckets share a slot. */
    if (cmin > 0 && cmax / cmin <= 4096.0) {
        double width = g->cell_size * cmin;
        size_t nb = (size_t)ceil(FF_SQRT2 * cmax / cmin) + 2;
        st = search_buckets(&ctx, width, nb, settled, err);
    } else {
        st = search_heap(&ctx, settled, err);
    }
    free(mask);
    free(settled);
    return st;
}
