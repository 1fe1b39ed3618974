/* astar.h - one agent's own path on the current map: a plain A* over the
 * grid's legal steps (ff_grid_step_ok) with their costs
 * (ff_grid_step_cost), for when its field is stale or its way is held
 * by others (man 1 ffsim, "FALLBACK").
 *
 * The heuristic is the octile (8 moves) or Manhattan (4 moves) distance
 * to the bounding box of the goals, times the least cell cost and the
 * cell size: never more than the true cost, so the path found is a
 * shortest one.  Ties in the open list go to the higher cost so far, then
 * to the lower cell index, so the result is deterministic.
 */
#ifndef FF_ASTAR_H
#define FF_ASTAR_H

#include <stdint.h>

#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const ff_grid *grid;    /* borrowed: the map searched */
    const uint8_t *step_mask; /* borrowed, or NULL: w*h masks of the
                               grid's legal steps (ff_grid_step_masks),
                               read instead of ff_grid_step_ok */
    double *g;              /* w*h cost so far, or NULL before the first
                               search; owned */
    uint32_t *parent;       /* w*h; owned */
    uint32_t *stamp;        /* w*h: search generation that touched it */
    uint32_t generation;
    struct ff_astar_node { double f, g; uint32_t cell; } *heap;
    size_t nheap, cap_heap;
    int32_t gx0, gy0, gx1, gy1; /* goals' bounding box */
    double least;           /* least step cost per cell length */
    uint64_t expanded;      /* cells expanded over all searches */
    uint64_t max_expand;    /* a search gives up (no path) after this
                               many expansions; 0 = never */
} ff_astar;

/* Prepare searches on g (which must outlive it and keep its size; its
 * costs and goals may change between searches: call ff_astar_retarget).
 * The w*h arrays are allocated at the first search. */
ff_status ff_astar_init(ff_astar *a, const ff_grid *g, ff_error *err);
void ff_astar_free(ff_astar *a);

/* Read the grid's goals and least cost again (after a map change). */
void ff_astar_retarget(ff_astar *a);

/* A shortest path from cell start to the nearest goal, avoiding cells
 * where avoid (w*h, NULL for none) is non-zero (the goal itself excepted
 * only when it is start).  On success *path holds the cells after start
 * up to and including the goal (a malloc'ed array the caller frees;
 * NULL with *len 0 when start is a goal) and the result is 1; 0 when no
 * goal is reachable (or none was found within max_expand expansions);
 * -1 on allocation failure. */
int ff_astar_path(ff_astar *a, uint32_t start, const uint8_t *avoid, uint32_t **path,
                  uint32_t *len);

/* The goals of ff_astar_path_to's target: the grid's. */
#define FF_ASTAR_GOALS UINT32_MAX

/* A caller's test of each step a search may take (besides the grid's
 * legality and avoid): step_ok(ctx, from, to) is 1 when the step from
 * cell from to its neighbour to is allowed.  Borrowed for one search. */
typedef struct {
    int (*step_ok)(void *ctx, uint32_t from, uint32_t to);
    void *ctx;
} ff_astar_filter;

/* ff_astar_path to one open cell target (FF_ASTAR_GOALS: the grid's
 * goals, as ff_astar_path), taking only the steps filter allows (NULL:
 * every legal one): a shortest path among those, the heuristic the
 * distance to target.  The same results and ownership; 0 also when
 * target is closed. */
int ff_astar_path_to(ff_astar *a, uint32_t start, uint32_t target, const uint8_t *avoid,
                     const ff_astar_filter *filter, uint32_t **path, uint32_t *len);

#ifdef __cplusplus
}
#endif

#endif
