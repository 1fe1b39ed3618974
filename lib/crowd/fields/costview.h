/* costview.h - a field's cost to goal as its readers see it (the cost
 * PIBT orders an agent's cells by, reserve.h's ff_reserve_request): a
 * double a cell (profiles' and congestion fields, own goals' fields of
 * the general build), or a hop count a cell and the cost of each hop
 * count (own goals' breadth-first fields, goalfield.h: 2 or 4 bytes a
 * cell instead of 8).  ff_cost_at reads either.  A view borrows its
 * field's arrays: take it again after the field is built or rebuilt (a
 * map event).
 */
#ifndef FF_COSTVIEW_H
#define FF_COSTVIEW_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The cost of each hop count of the breadth-first fields of one step
 * cost: cost[h] is the h-fold repeated sum step + step + ... (what a
 * search that adds the step at each hop holds, bit for bit; not h *
 * step), known for h < len and grown as the searches reach further.
 * Hop counts at or past len (the all-ones "unreached") cost +inf. */
typedef struct {
    double *cost;   /* room for cap of them; never moves */
    size_t cap;
    uint32_t len;
    int wide;       /* hop counts are uint32_t, else uint16_t */
    double step;
} ff_hopcost;

/* A cost to goal a cell: cells are doubles when hops is NULL, else hop
 * counts of hops; cells NULL: none (a stale field). */
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
    h = v.hops->wide ? ((const uint32_t *)v.cells)[cell] : ((const uint16_t *)v.cells)[cell];
    return h < v.hops->len ? v.hops->cost[h] : INFINITY;
}

/* The bytes a cell of the view's cells takes. */
static inline size_t ff_cost_cell_bytes(ff_cost_view v)
{
    return !v.hops ? sizeof(double) : v.hops->wide ? sizeof(uint32_t) : sizeof(uint16_t);
}

#ifdef __cplusplus
}
#endif

#endif
