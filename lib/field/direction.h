/* direction.h - the direction field: the optimal next step of every cell.
 *
 * A cell's code is the first direction d, in the order N E S W NE SE SW NW,
 * whose step is legal and tight: D[next] + cost(cell, next) equals D[cell]
 * within a relative tolerance of FF_TIGHT_REL * D[cell].  Goals are
 * FF_DIR_GOAL; walls and unreachable cells FF_DIR_NONE.
 *
 * Acyclicity.  A tight step whose D[next] is not below D[cell] (a zero-cost
 * step, or a cost lost to rounding) could close a cycle.  Such a step is
 * taken only if it also lowers the cell's hop count: the fewest steps to a
 * goal over tight steps that never raise D.  The pair (D, hops) then falls
 * strictly along every chosen step, so following the codes always ends at a
 * goal.  Where every step costs more than rounding, the rule is the plain
 * tie-break.
 */
#ifndef FF_DIRECTION_H
#define FF_DIRECTION_H

#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FF_TIGHT_REL 1e-9

/* 1 when a step of cost step_cost from a cell at distance d_cell to one at
 * d_next lies on a shortest path, within FF_TIGHT_REL. */
static inline int ff_step_tight(double d_cell, double d_next, double step_cost)
{
    double diff = d_next + step_cost - d_cell;
    if (diff < 0)
        diff = -diff;
    return diff <= FF_TIGHT_REL * d_cell;
}

/* The rule that picks a direction, the same over cells (direction.c) and
 * over (cell, heading) states (turndir.c): a node's code is the first
 * legal step, in code order, that ff_step_taken() takes.  For one step
 * from a node at distance d_from to one at d_to of cost step_cost: a
 * tight step is taken when it lowers D, or, with hop counts (hops not
 * NULL, indexed by node), when it keeps D and leads to a node of fewer
 * hops, hops[to] < hops[from], so that following the codes never loops;
 * *flat is set when a tight step keeps D (the field then needs hop
 * counts). */
static inline int ff_step_taken(double d_from, double d_to, double step_cost,
                                const uint32_t *hops, size_t from, size_t to, int *flat)
{
    if (!ff_step_tight(d_from, d_to, step_cost))
        return 0;
    if (d_to == d_from)
        *flat = 1;
    return d_to < d_from || (hops && d_to == d_from && hops[to] < hops[from]);
}

/* 1 when a step from a node at d_from to one at d_to of cost step_cost
 * passes hop counts back (hop count of from = that of to + 1, breadth
 * first from the goals): a tight step that does not raise D. */
static inline int ff_step_hop(double d_from, double d_to, double step_cost)
{
    return d_to <= d_from && ff_step_tight(d_from, d_to, step_cost);
}

/* Fill dir[0..w*h) from the distance field dist of grid g. */
ff_status ff_direction_field(const ff_grid *g, const double *dist,
                             uint8_t *dir, ff_error *err);

/* The same, and *flat set to 1 when some cell has a tight step that keeps
 * D (the field needed hop counts), else 0. */
ff_status ff_direction_field_flat(const ff_grid *g, const double *dist, uint8_t *dir,
                                  int *flat, ff_error *err);

/* ff_direction_field_flat with the grid's step masks given (mask:
 * ff_grid_step_masks of g, w*h bytes), for a caller that keeps them. */
ff_status ff_direction_field_masks(const ff_grid *g, const double *dist, const uint8_t *mask,
                                   uint8_t *dir, int *flat, ff_error *err);

/* The codes of cells[0..ncells) alone, by the plain rule (no hop counts):
 * what ff_direction_field() gives them when no cell of the field has a
 * tight step that keeps D.  Returns 1 when one of these cells has such a
 * step (then only the whole field is right), else 0. */
int ff_direction_cells(const ff_grid *g, const double *dist, const uint32_t *cells,
                       size_t ncells, uint8_t *dir);

#ifdef __cplusplus
}
#endif

#endif
