/* costview.h - a field's cost to goal as its readers see it (the cost
 * PIBT orders an agent's cells by, reserve.h's ff_reserve_request): a
 * double a cell (profiles' and congestion fields, own goals' fields of
 * the general build), or a hop count a cell and the cost of each hop
 * count (own goals' fields searched by hop counts, goalfield.h: 2 bytes
 * a cell, or in tiles made as reached on maps of 65,535 cells or more,
 * hoptiles.h).  ff_cost_at reads either.  A view borrows its field's
 * arrays: take it again after the field is built or rebuilt (a map
 * event); a field's tiles may grow while it is held.
 */
#ifndef FF_COSTVIEW_H
#define FF_COSTVIEW_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "hoptiles.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The cost of each hop count of the breadth-first fields of one step
 * cost: cost[h] is the h-fold repeated sum step + step + ... (what a
 * search that adds the step at each hop holds, bit for bit; not h *
 * step), known for h < len and grown as the searches reach further.
 * Hop counts at or past len (FF_HOP_UNREACHED) cost +inf. */
typedef struct {
    double *cost;   /* room for cap of them; never moves */
    size_t cap;
    uint32_t len;
    int tiled;      /* hop counts in tiles (hoptiles.h), else uint16_t a
                       cell (on grids of fewer than 65,535 cells) */
    double step;
} ff_hopcost;

/* A cost to goal a cell: cells are doubles when hops is NULL, else hop
 * counts of hops (an ff_hoptiles when tiled); cells NULL: none (a stale
 * field). */
typedef struct {
    const void *cells;
    const ff_hopcost *hops;
} ff_cost_view;

/* A view of a double a cell (NULL: none). */
static inline ff_cost_view ff_cost_doubles(const double *cells)
{
    ff_cost_view v;
    v.cells = cells;
    v.hops = NULL;
    return v;
}

/* The cost to goal of cell (of a view with cells). */
static inline double ff_cost_at(ff_cost_view v, size_t cell)
{
    uint32_t h;
    if (!v.hops)
        return ((const double *)v.cells)[cell];
    h = v.hops->tiled ? ff_hoptiles_count((const ff_hoptiles *)v.cells, (uint32_t)cell)
                      : ((const uint16_t *)v.cells)[cell];
    return h < v.hops->len ? v.hops->cost[h] : INFINITY;
}

/* The address to prefetch before reading the cost of cell (of a view
 * with cells): its double or hop count, or its tile's slot. */
static inline const void *ff_cost_addr(ff_cost_view v, size_t cell)
{
    const ff_hoptiles *t = (const ff_hoptiles *)v.cells;
    uint32_t y;
    if (!v.hops)
        return (const double *)v.cells + cell;
    if (!v.hops->tiled)
        return (const uint16_t *)v.cells + cell;
    y = ff_hoptiles_row(t, (uint32_t)cell);
    return ff_hoptiles_slot(t, (uint32_t)cell - y * t->w, y);
}

#ifdef __cplusplus
}
#endif

#endif
