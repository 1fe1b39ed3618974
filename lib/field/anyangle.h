/* anyangle.h - the any-angle field: exact shortest distances, at any
 * angle, from every cell to the nearest goal (man 1 ffbuild, --any-angle).
 *
 * The free space is the union of the open cells seen as closed unit
 * squares, bounded by the walls and the map's edge; with the corner rule
 * strict it leaves out the points where two walls touch diagonally, with
 * cut or free a path may pass there (freesight.h).  A cell's distance is
 * the cost of its cells times the length of the shortest path in the free
 * space from its centre to the centre of a goal cell.
 *
 * Such a path is a polyline whose inner vertices are grid vertices where
 * it turns round a wall (Lozano-Perez and Wesley, "An algorithm for
 * planning collision-free paths among polyhedral obstacles", CACM 1979):
 * the corners where one of the four cells is a wall, and under cut or free
 * the pinch points.  These corners and the goal centres are the roots; the
 * search finds their exact distances by Dijkstra's algorithm over the
 * sight lines between them, and each cell takes the best root it sees.
 * See anyangle.c for how it stays exact and why it is fast.
 */
#ifndef FF_ANYANGLE_H
#define FF_ANYANGLE_H

#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* FF_OK when g is a map the any-angle field is defined on: at least one
 * goal, every open cell of one cost, no one-way cells, one terrain class,
 * at most UINT32_MAX grid vertices and 2^29 cells a side; otherwise
 * FF_EINPUT (FF_EUSAGE without a goal) with a sentence saying why. */
ff_status ff_anyangle_check(const ff_grid *g, ff_error *err);

/* Fill dist[0..w*h) with the any-angle distance of every cell in world
 * units (cost x cell_size x length); +inf for walls and unreachable cells.
 * toward, when not NULL, gets 2*w*h floats: for cell i, (toward[2i],
 * toward[2i+1]) is the unit vector, x east and y south, from the cell's
 * centre toward the next vertex of its shortest path (a wall corner or the
 * goal's centre); (0, 0) on goals, walls and unreachable cells.  Where
 * two vertices give a cell the same distance, the vector points at the
 * one nearer a goal, then at the first (goals in their order, then wall
 * corners in row order).  Both arrays are the caller's.  Work and memory
 * grow with the map: besides the outputs, about 1.2 bytes a cell (2.2
 * when a sight line must be walked, which genmap's maps never need), 16
 * a column, 37 a turning corner and 44 a cell of the largest flood (with
 * toward, 4 more a cell). */
ff_status ff_anyangle_search(const ff_grid *g, double *dist, float *toward, ff_error *err);

/* The direction vectors of the any-angle field of g whose distances are
 * dist: toward as ff_anyangle_search() fills it, after checking that dist
 * is bit for bit what that search gives (FF_EINPUT otherwise: distances
 * edited, or of another map).  The search runs again; dist is not
 * changed. */
ff_status ff_anyangle_directions(const ff_grid *g, const double *dist, float *toward,
                                 ff_error *err);

/* The direction code that stands for a cell's vector (vx, vy) of an
 * any-angle field whose distance there is dist: FF_DIR_NONE when dist is
 * not finite, FF_DIR_GOAL for a zero vector, else the nearest of the
 * eight directions (ff_heading_nearest). */
int ff_anyangle_code(double dist, float vx, float vy);

/* The corner path of cell (x, y) in the any-angle field of g whose
 * distances are dist (checked as by ff_anyangle_directions): the world
 * positions of the cell's centre, of each wall corner where its shortest
 * path turns, and of the goal's centre (the centre alone for a goal), as
 * *n pairs x, y in *xy (malloc'd; the caller frees it).  FF_EUSAGE for a
 * cell outside the map, FF_ENOTFOUND for one blocked or out of reach, and
 * FF_EINPUT, FF_ENOMEM. */
ff_status ff_anyangle_corner_path(const ff_grid *g, const double *dist, long long x, long long y,
                                  double **xy, size_t *n, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
