/* los.h - line of sight on a grid that obeys the move rule (man 1 ffpull,
 * "LINE OF SIGHT"), and the exact orientation predicate it rests on.
 *
 * A sight line is the closed segment S between two points a and b.  A cell
 * counts as blocked when it is a wall (cost +inf, which includes cells closed
 * by the clearance radius), lies outside the map, belongs to another terrain
 * class than a's cell, or has another cost than a's cell.  a's and b's cells
 * (by floor, as ff_world_to_cell) must be open.  Then, by the grid's corner
 * rule (with 4 moves, free is read as cut):
 *
 *   strict  S touches no blocked cell at all, not even at one corner point;
 *   cut     S can be covered by a chain of open cells, from a's cell to b's
 *           cell, each holding the next piece of S (a piece may be a single
 *           point), consecutive cells sharing an edge: S may graze a wall
 *           along an edge, or pass a corner point where two blocked cells
 *           meet diagonally only if one of the two other cells there is open
 *           (as a diagonal step needs one open side cell);
 *   free    the same chain, but consecutive cells may share only a corner:
 *           S may slip between two diagonal blocked cells.
 *
 * One-way cells: each cell of the chain must allow leaving toward the next
 * (a corner crossing is a diagonal step); a segment that runs along a grid
 * line must be allowed to leave every open cell beside it in its direction,
 * except the cells level with b.
 *
 * The traversal is exact: cells are visited in order by comparing where S
 * crosses grid lines with an exact orientation test, so an exact corner
 * crossing is always seen as one.  No sampling.
 */
#ifndef FF_LOS_H
#define FF_LOS_H

#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The sign (-1, 0, +1) of (bx-ax)*(cy-ay) - (by-ay)*(cx-ax), computed
 * exactly: a floating-point filter, then exact expansion arithmetic
 * (Shewchuk's orient2d) when the filter cannot decide.  In map coordinates
 * (x east, y south) a negative sign means c lies to the left of the walk
 * from a to b as seen on the map drawn north up, positive to the right,
 * 0 on the line.  Exact for coordinates whose magnitude is 0 or within
 * [1e-120, 1e150] (no overflow or underflow of the products). */
int ff_orient(double ax, double ay, double bx, double by, double cx, double cy);

/* 1 when the segment between world points (ax, ay) and (bx, by) is a sight
 * line on g by the rules above; 0 otherwise, including when either end
 * lies outside the map or in a blocked cell.  Costs time proportional to
 * the number of cells the segment crosses; allocates nothing. */
int ff_los(const ff_grid *g, double ax, double ay, double bx, double by);

#ifdef __cplusplus
}
#endif

#endif
