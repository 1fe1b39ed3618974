/* congestion.c - density-raised fields beside the static ones; see
 * congestion.h and man 1 ffsim, "CONGESTION". */
#define _POSIX_C_SOURCE 200809L
#include "congestion.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "direction.h"
#include "search.h"

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

ff_status ff_congestion_init(ff_congestion *g, ff_profiles *p, double weight, long long period,
                             ff_error *err)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h, k;

    memset(g, 0, sizeof *g);
    g->profiles = p;
    g->weight = weight;
    g->period = period;
    g->density = calloc(n, sizeof *g->density);
    g->field = calloc(p->nprofiles, sizeof *g->field);
    if (!g->density || !g->field)
        goto nomem;
    g->nfields = p->nprofiles;
    for (k = 0; k < g->nfields; k++) {
        ff_congestion_field *f = &g->field[k];
        ff_grid_init(&f->grid);
        f->grid_map_tick = LLONG_MIN;
        f->cost_to_goal = malloc(n * sizeof *f->cost_to_goal);
        f->direction = malloc(n);
        if (!f->cost_to_goal || !f->direction)
            goto nomem;
    }
    return FF_OK;
nomem:
    ff_congestion_free(g);
    return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the congestion fields");
}

void ff_congestion_free(ff_congestion *g)
{
    size_t k;
    for (k = 0; k < g->nfields; k++) {
        ff_grid_free(&g->field[k].grid);
        free(g->field[k].cost_to_goal);
        free(g->field[k].direction);
    }
    free(g->field);
    free(g->density);
    memset(g, 0, sizeof *g);
}

void ff_congestion_begin(ff_congestion *g)
{
    const ff_grid *m = &g->profiles->map;
    memset(g->density, 0, (size_t)m->w * (size_t)m->h * sizeof *g->density);
}

/* The agent's unit mass over the four cells whose centers surround it,
 * bilinearly; mass that falls outside the map is dropped. */
void ff_congestion_add(ff_congestion *g, double x, double y)
{
    const ff_grid *m = &g->profiles->map;
    double inv = 1 / m->cell_size, per_area = inv * inv;
    double fx = (x - m->origin_x) * inv - 0.5, fy = (y - m->origin_y) * inv - 0.5;
    double x0 = floor(fx), y0 = floor(fy), tx = fx - x0, ty = fy - y0;
    long long cx, cy;
    int i, j;

    if (!(x0 > -2 && y0 > -2 && x0 < (double)m->w && y0 < (double)m->h))
        return;  /* (NaN too) no cell of the four is in the map */
    cx = (long long)x0;
    cy = (long long)y0;
    for (j = 0; j < 2; j++)
        for (i = 0; i < 2; i++) {
            long long px = cx + i, py = cy + j;
            double share = (i ? tx : 1 - tx) * (j ? ty : 1 - ty);
            if (px >= 0 && py >= 0 && px < m->w && py < m->h)
                g->density[(size_t)py * (size_t)m->w + (size_t)px] += share * per_area;
        }
}

/* Search profile k's congestion field on the density gathered. */
static ff_status build(ff_congestion *g, size_t k, ff_error *err)
{
    ff_profiles *p = g->profiles;
    const ff_profile *pf = &p->profile[k];
    ff_congestion_field *f = &g->field[k];
    /* The static directions of the map pf->grid is of: the ones awaiting
     * publication while the profile is stale. */
    const uint8_t *fixed = pf->stale ? pf->next_direction : pf->direction;
    size_t n = (size_t)p->map.w * (size_t)p->map.h, i;
    ff_status st;

    if (f->grid_map_tick != p->map_tick) {
        ff_grid_free(&f->grid);
        if ((st = ff_grid_copy(&f->grid, &pf->grid, err)) != FF_OK)
            return st;
        f->grid_map_tick = p->map_tick;
    }
    for (i = 0; i < n; i++) {
        double c = (double)pf->grid.cost[i];
        if (ff_grid_open(&pf->grid, i)) {
            c *= 1 + g->weight * g->density[i];
            f->grid.cost[i] = c < (double)FF_CONGESTION_COST_MAX ? (float)c : FF_CONGESTION_COST_MAX;
        }
    }
    if (f->grid.ngoals == 0) {
        memcpy(f->direction, fixed, n);
        for (i = 0; i < n; i++)
            f->cost_to_goal[i] = INFINITY;
    } else {
        if ((st = ff_search(&f->grid, f->cost_to_goal, err)) != FF_OK ||
            (st = ff_direction_field(&f->grid, f->cost_to_goal, f->direction, err)) != FF_OK)
            return st;
        for (i = 0; i < n; i++)
            if (f->direction[i] == FF_DIR_NONE && !ff_grid_open(&f->grid, i))
                f->direction[i] = fixed[i];  /* lead-out cells, walls */
    }
    f->built = 1;
    f->built_map_tick = p->map_tick;
    return FF_OK;
}

ff_status ff_congestion_finish(ff_congestion *g, ff_error *err)
{
    double t0 = cpu_seconds();
    size_t k;
    ff_status st;

    for (k = 0; k < g->nfields; k++)
        if ((st = build(g, k, err)) != FF_OK)
            return st;
    g->refreshes++;
    g->seconds += cpu_seconds() - t0;
    return FF_OK;
}
