/* funnel.h - corridors of portals, and the funnel algorithm that finds the
 * shortest path through them (man 1 fffunnel).
 *
 * A corridor is a start point, a sequence of portals (segments the path
 * must cross in order) and a goal point, in world units (x east, y south).
 * Each portal's left and right ends are named as seen walking the
 * corridor on the map drawn north up: walking north, left is west.  Two
 * consecutive portals (and the start with the first, the last with the
 * goal) must bound a convex region, as the edges of one cell or one
 * navigation-mesh polygon do.
 */
#ifndef FF_FUNNEL_H
#define FF_FUNNEL_H

#include "grid.h"
#include "pull.h"
#include "records.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest accepted coordinate magnitude: keeps orientation tests exact. */
#define FF_FUNNEL_COORD_MAX 1e150

typedef struct {
    double lx, ly, rx, ry;  /* left and right ends, world units */
    long line;              /* input line (0 when made in memory) */
} ff_portal;

/* A corridor owns its portal array; ff_corridor_free() releases it. */
typedef struct {
    double start_x, start_y, goal_x, goal_y;
    long start_line, goal_line;
    ff_portal *portal;
    size_t n, cap;
} ff_corridor;

void ff_corridor_init(ff_corridor *c);
void ff_corridor_free(ff_corridor *c);

/* Append a portal (FF_ENOMEM on failure). */
ff_status ff_corridor_push(ff_corridor *c, double lx, double ly, double rx, double ry,
                           long line, ff_error *err);

/* Read the portal format: the start `x y`, one `lx ly rx ry` a line, the
 * goal `x y` last (man 1 fffunnel, DESCRIPTION).  Malformed lines, a record
 * of 3 numbers, a point before the end, a missing goal, non-finite or
 * out-of-range (> FF_FUNNEL_COORD_MAX) numbers are FF_EINPUT at their
 * line. */
ff_status ff_corridor_read(ff_corridor *c, ff_records *r, ff_error *err);

/* Build the corridor of a cell path on grid g: each point of cells (world
 * units, such as the cell centers ffquery --trace writes) names the cell it
 * lies in; repeated cells are dropped; the start and goal are the first and
 * last points.  Consecutive cells must be neighbours (8-neighbourhood);
 * each orthogonal step gives the shared edge as a portal.  A diagonal step
 * shares only a corner, so a side cell is put between: the one in the
 * x direction of the step if it is open and of the start cell's terrain
 * class, else the one in the y direction if it is; two portals of width
 * one cell result.  When neither side cell qualifies (possible only with
 * free corners), the corner itself is a portal of width 0.  Points outside
 * the map or in blocked cells, and non-neighbour steps, are FF_EINPUT
 * naming the line in file. */
ff_status ff_corridor_from_cells(const ff_grid *g, const ff_path *cells, const char *file,
                                 ff_corridor *c, ff_error *err);

/* Refuse a corridor whose portals face backwards, which is what swapping
 * a portal's left and right ends does: the start, and both ends of each
 * portal, must lie behind or on the line of the next portal (walking
 * forward), the goal ahead of or on the last.  Zero-width portals have no
 * facing and are not checked.  FF_EINPUT naming the portal's line. */
ff_status ff_corridor_check(const ff_corridor *c, const char *file, ff_error *err);

/* Relative tolerance of the width test: a portal is narrower than 2R when
 * width < 2R (1 - FF_FUNNEL_WIDTH_REL), so that rounding (0.7 - 0.3 is not
 * quite 0.4) does not refuse a portal exactly 2R wide. */
#define FF_FUNNEL_WIDTH_REL 1e-12

/* Shrink every portal by radius at both ends (an agent of that radius
 * keeps its center radius from each end).  A portal 2 radius wide (within
 * FF_FUNNEL_WIDTH_REL) becomes its midpoint; one narrower is FF_ENOTFOUND
 * naming the portal, its line in file, and its width.  radius must be
 * finite and >= 0; 0 changes nothing. */
ff_status ff_corridor_shrink(ff_corridor *c, double radius, const char *file, ff_error *err);

/* The shortest path from the start to the goal through the portals in
 * order: the funnel algorithm of Lee and Preparata ("Euclidean shortest
 * paths in the presence of rectilinear barriers", 1984) as a double-ended
 * queue of the funnel's two chains, one pass, O(n) time.  Appends to out
 * the start, the corners (each a portal end, exactly as given) and the
 * goal; consecutive equal points are merged, but the start and the goal
 * are always there. */
ff_status ff_funnel(const ff_corridor *c, ff_path *out, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
