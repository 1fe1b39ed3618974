/* search.h - the distance field: cost to the nearest goal from every cell.
 *
 * The search runs backwards from the goals over reversed edges with the
 * forward step costs (grid.h), so one-way cells and asymmetric rules are
 * honoured exactly.  With positive costs it is a bucket queue whose bucket
 * width is the smallest step cost: every cell in the lowest bucket is final,
 * so the buckets need no ordering inside (Dial's algorithm generalised; with
 * equal step costs it is a breadth-first search).  With zero costs, or costs
 * too spread for buckets, it is Dijkstra's algorithm with a binary heap.
 */
#ifndef FF_SEARCH_H
#define FF_SEARCH_H

#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fill dist[0..w*h) with the least cost from each cell to a goal, in world
 * units; +inf for walls and unreachable cells.  g must have at least one
 * goal.  dist is the caller's. */
ff_status ff_search(const ff_grid *g, double *dist, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
