/* freesight.h - sight lines of the any-angle field (anyangle.h): is a
 * segment inside the free space of a map?
 *
 * The free space is the union of the open cells seen as closed unit
 * squares; cells outside the map are walls.  With the corner rule strict
 * it also leaves out every pinch point, a grid vertex where two walls
 * touch diagonally and the two other cells are open; with cut or free a
 * segment may pass through a pinch point.  So a segment may touch a wall
 * or run along it but never cross it, and never run between two walls
 * along their common edge.
 *
 * Points are given in half cells ("doubled" coordinates): the corner
 * (X, Y) of the grid is (2X, 2Y), the centre of cell (x, y) is
 * (2x+1, 2y+1).  The test is exact: it walks the cells the segment
 * crosses, ordering its crossings of grid lines by integer products.
 */
#ifndef FF_FREESIGHT_H
#define FF_FREESIGHT_H

#include <stdint.h>

#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when cell (x, y) is inside the map and open. */
static inline int ff_free_cell(const ff_grid *g, int64_t x, int64_t y)
{
    return x >= 0 && y >= 0 && x < g->w && y < g->h && ff_grid_open(g, (size_t)y * (size_t)g->w + (size_t)x);
}

/* 1 when grid vertex (X, Y) is a pinch point: two walls touch there
 * diagonally while the two other cells are open. */
int ff_free_pinch(const ff_grid *g, int64_t vx, int64_t vy);

/* 1 when the closed segment from (ax, ay) to (bx, by), in half cells, lies
 * in g's free space as above.  Both ends must be cell centres or grid
 * vertices (both coordinates odd, or both even) within the map's closure;
 * a vertex end must not be a pinch point under strict.  Costs time
 * proportional to the cells crossed; allocates nothing. */
int ff_free_segment(const ff_grid *g, int64_t ax, int64_t ay, int64_t bx, int64_t by);

/* Each cell's clearance into clear (w*h bytes, the caller's): 0 for a
 * wall, else the least chessboard distance to a wall or to a cell outside
 * the map, capped at 255; so the cells within clearance - 1 of a cell are
 * all open.  Time proportional to w*h. */
void ff_free_clearance(const ff_grid *g, uint8_t *clear);

/* ff_free_segment, the same answer, leaping across open squares with g's
 * clearance map clear (ff_free_clearance; NULL: step by step). */
int ff_free_segment_leaping(const ff_grid *g, const uint8_t *clear, int64_t ax, int64_t ay,
                            int64_t bx, int64_t by);

#ifdef __cplusplus
}
#endif

#endif
