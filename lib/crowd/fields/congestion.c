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
#include "grow.h"
#include "search.h"

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

ff_status ff_congestion_init(ff_congestion *g, ff_profiles *p, double weight, double threshold,
                             long long period, ff_error *err)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h, k;

    memset(g, 0, sizeof *g);
    ff_repair_init(&g->repair);
    g->profiles = p;
    g->weight = weight;
    g->threshold = threshold;
    g->period = period;
    g->density = calloc(n, sizeof *g->density);
    g->listed = calloc(n, 1);
    g->field = calloc(p->nprofiles, sizeof *g->field);
    if (!g->density || !g->listed || !g->field)
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
        free(g->field[k].lead_out);
    }
    free(g->field);
    free(g->density);
    free(g->listed);
    free(g->cells);
    free(g->change);
    ff_repair_free(&g->repair);
    memset(g, 0, sizeof *g);
}

void ff_congestion_begin(ff_congestion *g)
{
    size_t k;
    for (k = 0; k < g->ncells; k++)
        g->density[g->cells[k]] = 0;
    g->failed = 0;
}

/* Put cell i on the list (once); 0 when out of memory. */
static int list_cell(ff_congestion *g, size_t i)
{
    if (g->listed[i])
        return 1;
    if (g->ncells == g->cap_cells) {
        uint32_t *q = ff_grow(g->cells, &g->cap_cells, g->ncells + 1, sizeof *q, 1024);
        if (!q)
            return 0;
        g->cells = q;
    }
    g->cells[g->ncells++] = (uint32_t)i;
    g->listed[i] = 1;
    return 1;
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
            size_t cell;
            if (px < 0 || py < 0 || px >= m->w || py >= m->h)
                continue;
            cell = (size_t)py * (size_t)m->w + (size_t)px;
            if (!list_cell(g, cell))
                g->failed = 1;
            g->density[cell] += share * per_area;
        }
}

/* The congestion cost of an open cell of static cost c and density rho:
 * only the density over the threshold counts. */
static float raised(const ff_congestion *g, float c, double rho)
{
    double v;
    if (!(rho > g->threshold))
        return c;
    v = (double)c * (1 + g->weight * (rho - g->threshold));
    return v < (double)FF_CONGESTION_COST_MAX ? (float)v : FF_CONGESTION_COST_MAX;
}

/* Search profile k's congestion field whole on the density gathered,
 * from a fresh copy of the profile's grid; list its lead-out cells. */
static ff_status search_whole(ff_congestion *g, size_t k, ff_error *err)
{
    ff_profiles *p = g->profiles;
    const ff_profile *pf = &p->profile[k];
    ff_congestion_field *f = &g->field[k];
    /* The static directions of the map pf->grid is of: the ones awaiting
     * publication while the profile is stale. */
    const uint8_t *fixed = pf->stale ? pf->next_direction : pf->direction;
    size_t n = (size_t)p->map.w * (size_t)p->map.h, i, m = 0;
    ff_status st;

    ff_grid_free(&f->grid);
    if ((st = ff_grid_copy(&f->grid, &pf->grid, err)) != FF_OK)
        return st;
    f->grid_map_tick = p->map_tick;
    for (i = 0; i < g->ncells; i++) {
        uint32_t c = g->cells[i];
        if (ff_grid_open(&f->grid, c))
            f->grid.cost[c] = raised(g, pf->grid.cost[c], g->density[c]);
    }
    for (i = 0; i < n; i++)
        m += !ff_grid_open(&f->grid, i) && fixed[i] != FF_DIR_NONE;
    free(f->lead_out);
    f->nlead_out = 0;
    if (!(f->lead_out = malloc((m ? m : 1) * sizeof *f->lead_out)))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the congestion fields");
    for (i = 0; i < n; i++)
        if (!ff_grid_open(&f->grid, i) && fixed[i] != FF_DIR_NONE)
            f->lead_out[f->nlead_out++] = (uint32_t)i;
    if (f->grid.ngoals == 0) {
        memcpy(f->direction, fixed, n);
        for (i = 0; i < n; i++)
            f->cost_to_goal[i] = INFINITY;
        f->flat = 1;
    } else {
        if ((st = ff_search(&f->grid, f->cost_to_goal, err)) != FF_OK ||
            (st = ff_direction_field_flat(&f->grid, f->cost_to_goal, f->direction, &f->flat, err)) != FF_OK)
            return st;
    }
    g->searches++;
    return FF_OK;
}

/* Repair profile k's congestion field for the cells of the list whose
 * cost the density changed. */
static ff_status repair(ff_congestion *g, size_t k, ff_error *err)
{
    const ff_profile *pf = &g->profiles->profile[k];
    ff_congestion_field *f = &g->field[k];
    size_t i, nch = 0;
    ff_status st;

    for (i = 0; i < g->ncells; i++) {
        uint32_t c = g->cells[i];
        float v;
        if (!ff_grid_open(&f->grid, c))
            continue;
        v = raised(g, pf->grid.cost[c], g->density[c]);
        if (v != f->grid.cost[c]) {
            g->change[nch].cell = c;
            g->change[nch++].cost = v;
        }
    }
    if (nch == 0 || f->grid.ngoals == 0)
        return FF_OK;
    if ((st = ff_repair_field(&g->repair, &f->grid, f->cost_to_goal, g->change, nch, NULL, err)) != FF_OK ||
        (st = ff_repair_directions(&g->repair, &f->grid, f->cost_to_goal, f->direction, &f->flat,
                                   err)) != FF_OK)
        return st;
    if (g->repair.rebuilt)
        g->searches++;
    return FF_OK;
}

ff_status ff_congestion_finish(ff_congestion *g, ff_error *err)
{
    ff_profiles *p = g->profiles;
    double t0 = cpu_seconds();
    size_t k, i, kept = 0;
    ff_status st = FF_OK;

    if (g->failed)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the congestion fields");
    if (g->ncells) {
        ff_cell_change *q = realloc(g->change, g->ncells * sizeof *q);
        if (!q)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the congestion fields");
        g->change = q;
    }
    for (k = 0; k < g->nfields && st == FF_OK; k++) {
        ff_congestion_field *f = &g->field[k];
        const ff_profile *pf = &p->profile[k];
        const uint8_t *fixed = pf->stale ? pf->next_direction : pf->direction;
        st = f->built && f->grid_map_tick == p->map_tick ? repair(g, k, err) : search_whole(g, k, err);
        if (st != FF_OK)
            break;
        /* Cells closed by the clearance lead back as the static field
         * does (the repair's picks make walls of them). */
        for (i = 0; i < f->nlead_out; i++)
            f->direction[f->lead_out[i]] = fixed[f->lead_out[i]];
        f->built = 1;
        f->built_map_tick = p->map_tick;
    }
    if (st != FF_OK) {
        for (k = 0; k < g->nfields; k++)
            g->field[k].built = 0;  /* searched whole at the next refresh */
        return st;
    }
    /* The list keeps the cells that are dense now: the next refresh
     * changes them back when the crowd has moved on. */
    for (i = 0; i < g->ncells; i++) {
        uint32_t c = g->cells[i];
        if (g->density[c] != 0)
            g->cells[kept++] = c;
        else
            g->listed[c] = 0;
    }
    g->ncells = kept;
    g->refreshes++;
    g->seconds += cpu_seconds() - t0;
    return FF_OK;
}
