/* repair.h - a distance field repaired after some cells of its map change,
 * not searched again whole (man 1 ffbuild, --update).
 *
 * The repaired distances equal, bit for bit, what ff_search() gives on the
 * changed map: each is the least, over the paths to a goal, of the path's
 * cost summed from the goal in doubles, as the search sums it.  The repair
 * is the dynamic shortest-path repair of Ramalingam and Reps ("An
 * incremental algorithm for a generalization of the shortest-path
 * problem", J. Algorithms 21, 1996), in two phases:
 *
 *  - raise: the cells whose distance the change may have raised (a step
 *    of theirs on a shortest path was closed or made dearer) are taken in
 *    ascending old distance; a cell keeps its distance when one of its
 *    steps still reaches, at the same cost, a kept cell of lower distance
 *    (or of the same distance kept before it: so a zero-cost plateau never
 *    keeps itself up).  Each cell given up hands the test on to the cells
 *    whose shortest steps lead into it.  The cells given up are set to +inf.
 *  - lower: every cell given up or with a changed step takes the best of
 *    its steps, and Dijkstra's algorithm runs from them over the changed
 *    map, lowering what the change made cheaper.
 *
 * Only the cells whose distance can change, and their neighbours, are
 * touched.  When the work passes a sixteenth of the map the repair stops and
 * searches the whole map instead (ff_search()): the result is the same.
 *
 * A clearance radius is the caller's: it passes the cells the clearance
 * closes or opens as changes of the cleared grid (ff_grid_cleared_at() and
 * ff_grid_near_cells() in grid.h find them locally).
 */
#ifndef FF_REPAIR_H
#define FF_REPAIR_H

#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One changed cell. */
typedef struct {
    uint32_t cell;  /* y * w + x, inside the map */
    float cost;     /* its new cost: >= 0, or +inf to close it */
} ff_cell_change;

/* What one repair did, for reports and benchmarks. */
typedef struct {
    size_t changed;   /* cells whose cost changed */
    size_t raised;    /* cells the raise phase gave up (set to +inf) */
    size_t settled;   /* cells the lower phase settled */
    size_t moved;     /* cells whose distance differs from before */
    int rebuilt;      /* 1 when it searched the whole map instead */
} ff_repair_stats;

/* Scratch memory of repairs, kept from one to the next (per map size);
 * the caller's, zeroed by ff_repair_init(), released by ff_repair_free().
 * Its fields are the repair's own. */
typedef struct {
    size_t ncells;          /* the map size the per-cell arrays are for */
    uint8_t *flag;          /* per cell: the repair's marks, 0 between repairs */
    int32_t *slot;          /* per cell: 1 + its entry in edge, or 0 */
    struct ff_repair_edges *edge; /* old and new steps of the cells near a change */
    size_t nedge, edge_cap;
    uint32_t *touched;      /* cells with a mark, to clear them after */
    size_t ntouched, touched_cap;
    uint32_t *moved;        /* cells whose distance changed, last repair */
    size_t nmoved, moved_cap;
    int rebuilt;            /* the last repair searched the whole map */
    void *queue;            /* the heap */
} ff_repair;

void ff_repair_init(ff_repair *r);
void ff_repair_free(ff_repair *r);

/* Apply the changes ch[0..nch) to g->cost and repair dist (the distance
 * field ff_search() gave on g before the changes) in place.  A cell named
 * twice takes its last cost.  g's goals stay the goals: a change that
 * closes a goal, names a cell outside the map, or gives a cost that is
 * negative or NaN is refused (FF_EINPUT) before anything changes.  stats
 * may be NULL.  FF_ENOMEM leaves g changed and dist to be rebuilt. */
ff_status ff_repair_field(ff_repair *r, ff_grid *g, double *dist, const ff_cell_change *ch,
                          size_t nch, ff_repair_stats *stats, ff_error *err);

/* The changes of a cleared grid that follow from changes of its map: map
 * is the map before any clearance, with the changes made, cleared the
 * grid of clearance radius (ff_grid_apply_clearance() of map before the
 * changes, as ff_repair_field() has kept it since), cells[0..ncells) the
 * cells of map that changed.  Each cell within the clearance's reach of a
 * changed one gets its cleared cost again (ff_grid_cleared_at()); those
 * that differ from cleared's are listed in *out (grown with realloc, *cap
 * its room; the caller frees it), *nout of them. */
ff_status ff_repair_cleared_changes(ff_repair *r, const ff_grid *map, double radius,
                                    const ff_grid *cleared, const uint32_t *cells,
                                    size_t ncells, ff_cell_change **out, size_t *nout,
                                    size_t *cap, ff_error *err);

/* Repair the direction field dir (ff_direction_field() of g and the
 * distances before the last ff_repair_field() on r) for the distances dist
 * that repair left: only the cells next to a changed distance or step are
 * picked again.  *flat says, on entry, whether the old field had a
 * zero-cost tie (1 if unknown); the local pick is exact only without one
 * (direction.h, "Acyclicity"), so with one, or when a picked cell has one,
 * the whole field is made again.  On return *flat says it of the new
 * field. */
ff_status ff_repair_directions(ff_repair *r, const ff_grid *g, const double *dist,
                               uint8_t *dir, int *flat, ff_error *err);

/* The cells whose distance the last repair changed (none after a whole
 * search: then r->rebuilt is 1), valid until the next repair. */
static inline const uint32_t *ff_repair_moved(const ff_repair *r, size_t *n)
{
    *n = r->nmoved;
    return r->moved;
}

#ifdef __cplusplus
}
#endif

#endif
