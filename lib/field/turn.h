/* turn.h - turn-cost fields: distances and directions over (cell, heading)
 * states (man 1 ffbuild, --turn-cost; man 5 ff, "Turn-cost fields").
 *
 * A state (v, h) is an agent in cell v whose last move was in direction h
 * (the move that brought it into v; the codes of grid.h, 0 N to 7 NW).  A
 * legal step in direction d from (u, h) leads to (u + step(d), d) and costs
 * step_cost(u, d) + C * ff_turns(h, d), C the turn cost.  The distance of a
 * state is the least cost from it to a goal cell, 0 at a goal whatever the
 * heading; its direction is the first d, in tie-break order, of a step on
 * such a least-cost path.
 *
 * Heading arrays are cell-major: the 8 values of cell i are [8 * i, 8 * i
 * + 8), heading h at 8 * i + h, as the stream's x8 channels hold them.
 */
#ifndef FF_TURN_H
#define FF_TURN_H

#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FF_HEADINGS 8

/* The largest map a turn-cost field may have: 8 states a cell must fit
 * in 32-bit state numbers. */
#define FF_TURN_MAX_CELLS ((uint64_t)1 << 29)

/* The heading codes clockwise from north: N NE E SE S SW W NW. */
extern const int ff_heading_clockwise[8];

/* The number of 45-degree turns between headings a and b (codes 0..7):
 * 0 (the same) to 4 (opposite). */
int ff_turns(int a, int b);

/* Room for the distances of the 8 states of `cells` cells (8 * cells
 * doubles, not set), aligned to 64 bytes so that the 8 of a cell lie in
 * one cache line: ff_turn_search() on a large map runs about a quarter
 * faster than on an array from malloc(), whose lines the cells straddle.
 * free() releases it.  NULL when out of memory or cells > SIZE_MAX / 64. */
double *ff_turn_distances_alloc(size_t cells);

/* Fill hdist[0..8*w*h) with the distance of every state and dist[0..w*h)
 * with each cell's least over its headings; +inf for walls and states that
 * cannot reach a goal.  turn_cost is finite and >= 0; with 0 every heading
 * of a cell has the distance ff_search() gives the cell.  g must have a
 * goal and at most FF_TURN_MAX_CELLS cells.  The arrays are the caller's.
 * The search runs backwards from the goal states over reversed state
 * edges: a step (u, d) -> (v, d), and a turn in place between (v, h) and
 * (v, h') a 45-degree turn apart at cost turn_cost, which sum to
 * C * ff_turns() over the turns between two headings. */
ff_status ff_turn_search(const ff_grid *g, double turn_cost, double *hdist, double *dist,
                         ff_error *err);

/* Fill hdir[0..8*w*h) with the direction of every state (FF_DIR_GOAL at a
 * goal, FF_DIR_NONE where the distance is +inf) from the state distances
 * hdist, and dir[0..w*h) with the direction of each cell's best state: its
 * heading of least distance, the first in code order (among those, the
 * fewest steps, when zero-cost steps tie).  Following the states'
 * directions, or the cells', always ends at a goal. */
ff_status ff_turn_direction(const ff_grid *g, double turn_cost, const double *hdist,
                            uint8_t *hdir, uint8_t *dir, ff_error *err);

/* Copy heading h's directions out of hdir (8 * n codes, cell-major) into
 * out[0..n): the direction channel an agent of that heading follows. */
void ff_heading_plane(const uint8_t *hdir, size_t n, int h, uint8_t *out);

struct ff_field;

/* Make the ordinary channels of f, a turn-cost field (fielddata.h), those of
 * heading h (0..7): distance[i] the distance of state (i, h) and
 * direction[i] its direction, for the channels f has, so that whatever
 * reads the ordinary channels (a picture, a sample) sees the field an
 * agent of heading h follows.  The heading channels are then released and
 * f is a field without turn costs; its ids are left as read, stale for
 * the new channels (ff_field_update_distance_id() before writing it).
 * FF_EUSAGE, f unchanged, when f has no heading channels (a field not
 * built with a turn cost) or h is out of range. */
ff_status ff_field_as_heading(struct ff_field *f, int h, ff_error *err);

/* The heading code nearest to the direction (dx, dy) (world axes, +y
 * south); a direction halfway between two goes to the clockwise one.  (0, 0) gives
 * FF_DIR_N. */
int ff_heading_nearest(double dx, double dy);

/* Parse a heading: a code 0..7 or a name N E S W NE SE SW NW; -1 if
 * neither. */
int ff_heading_parse(const char *s);

#ifdef __cplusplus
}
#endif

#endif
