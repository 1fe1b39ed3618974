/* direction.c - the direction field; see direction.h. */
#include "direction.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NO_HOPS UINT32_MAX

typedef struct {
    const ff_grid *g;
    const double *dist;
    const uint8_t *mask;
    ptrdiff_t offset[8];
} dir_ctx;

/* The code of one cell by ff_step_taken() (hops NULL: without hop
 * counts). */
static uint8_t pick(const dir_ctx *c, size_t i, unsigned mask, const uint32_t *hops, int *flat)
{
    double di = c->dist[i];
    int d;

    for (d = 0; d < c->g->moves; d++) {
        size_t j;
        if (!(mask & (1u << d)))
            continue;
        j = (size_t)((ptrdiff_t)i + c->offset[d]);
        if (ff_step_taken(di, c->dist[j], ff_grid_step_cost(c->g, i, d), hops, i, j, flat))
            return (uint8_t)d;
    }
    return FF_DIR_NONE;
}

/* Hop counts: breadth-first from the goals over reversed tight steps that
 * do not raise D. */
static ff_status count_hops(const dir_ctx *c, uint32_t *hops, ff_error *err)
{
    const ff_grid *g = c->g;
    size_t n = (size_t)g->w * (size_t)g->h, head = 0, tail = 0, k;
    uint32_t *queue = malloc(n * sizeof *queue);

    if (!queue)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for hop counts");
    for (k = 0; k < n; k++)
        hops[k] = NO_HOPS;
    for (k = 0; k < g->ngoals; k++) {
        hops[g->goals[k]] = 0;
        queue[tail++] = g->goals[k];
    }
    while (head < tail) {
        uint32_t v = queue[head++];
        int x = (int)(v % (uint32_t)g->w), y = (int)(v / (uint32_t)g->w), d;
        for (d = 0; d < g->moves; d++) {
            int ux = x - ff_dir_dx[d], uy = y - ff_dir_dy[d];
            size_t u;
            if (ux < 0 || uy < 0 || ux >= g->w || uy >= g->h)
                continue;
            u = (size_t)((ptrdiff_t)v - c->offset[d]);
            if (hops[u] != NO_HOPS || !(c->mask[u] & (1u << d)))
                continue;
            if (!ff_step_hop(c->dist[u], c->dist[v], ff_grid_step_cost(g, u, d)))
                continue;
            hops[u] = hops[v] + 1;
            queue[tail++] = (uint32_t)u;
        }
    }
    free(queue);
    return FF_OK;
}

/* Fill a context's offsets. */
static void ctx_init(dir_ctx *c, const ff_grid *g, const double *dist, const uint8_t *mask)
{
    int d;

    c->g = g;
    c->dist = dist;
    c->mask = mask;
    for (d = 0; d < 8; d++)
        c->offset[d] = (ptrdiff_t)ff_dir_dy[d] * g->w + ff_dir_dx[d];
}

int ff_direction_cells(const ff_grid *g, const double *dist, const uint32_t *cells,
                       size_t ncells, uint8_t *dir)
{
    dir_ctx c;
    size_t k;
    int flat = 0;

    ctx_init(&c, g, dist, NULL);
    for (k = 0; k < ncells; k++) {
        size_t i = cells[k];
        int x = (int)(i % (size_t)g->w), y = (int)(i / (size_t)g->w), d;
        unsigned mask = 0;
        if (!ff_grid_open(g, i) || !(dist[i] < INFINITY)) {
            dir[i] = FF_DIR_NONE;
            continue;
        }
        if (ff_grid_is_goal(g, i)) {
            dir[i] = FF_DIR_GOAL;
            continue;
        }
        for (d = 0; d < g->moves; d++)
            if (ff_grid_step_ok(g, x, y, d))
                mask |= 1u << d;
        dir[i] = pick(&c, i, mask, NULL, &flat);
    }
    return flat;
}

ff_status ff_direction_field(const ff_grid *g, const double *dist,
                             uint8_t *dir, ff_error *err)
{
    int flat;

    return ff_direction_field_flat(g, dist, dir, &flat, err);
}

ff_status ff_direction_field_flat(const ff_grid *g, const double *dist, uint8_t *dir,
                                  int *flat_out, ff_error *err)
{
    size_t n = (size_t)g->w * (size_t)g->h;
    uint8_t *mask = malloc(n ? n : 1);
    ff_status st;

    *flat_out = 0;
    if (!mask)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu cells", n);
    ff_grid_step_masks(g, mask);
    st = ff_direction_field_masks(g, dist, mask, dir, flat_out, err);
    free(mask);
    return st;
}

ff_status ff_direction_field_masks(const ff_grid *g, const double *dist, const uint8_t *mask,
                                   uint8_t *dir, int *flat_out, ff_error *err)
{
    size_t n = (size_t)g->w * (size_t)g->h, i;
    int flat = 0;
    uint32_t *hops = NULL;
    dir_ctx c;

    *flat_out = 0;
    ctx_init(&c, g, dist, mask);
    for (i = 0; i < n; i++) {
        if (!ff_grid_open(g, i) || !(dist[i] < INFINITY))
            dir[i] = FF_DIR_NONE;
        else if (ff_grid_is_goal(g, i))
            dir[i] = FF_DIR_GOAL;
        else
            dir[i] = pick(&c, i, mask[i], NULL, &flat);
    }
    if (flat > 0) {
        /* Some cell has a tight step that keeps D: redo every reachable
         * cell with hop counts so that the choice stays acyclic. */
        ff_status st;
        hops = malloc(n * sizeof *hops);
        if (!hops)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for hop counts");
        st = count_hops(&c, hops, err);
        if (st != FF_OK) {
            free(hops);
            return st;
        }
        for (i = 0; i < n; i++)
            if (dir[i] != FF_DIR_GOAL && ff_grid_open(g, i) && dist[i] < INFINITY)
                dir[i] = pick(&c, i, mask[i], hops, &flat);
    }
    free(hops);
    *flat_out = flat;
    return FF_OK;
}
