/* goalgroup.h - the goal cells of a map in groups, one per exit: the
 * 8-connected components of the goal cells, so that a summary can say
 * how a crowd split between its exits (man 1 ffsim, "SUMMARY").
 *
 * Groups are numbered from 0 in the row-major order of their first cell.
 * Only the goal cells are stored (sorted), so the memory follows the
 * goals, not the map.  A goal groups record owns its arrays;
 * ff_goal_groups_free() releases them.
 */
#ifndef FF_GOALGROUP_H
#define FF_GOALGROUP_H

#include <stddef.h>
#include <stdint.h>

#include "fferror.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int32_t w, h;             /* cells */
    uint32_t *cell;           /* the goal cells, ascending */
    uint32_t *group;          /* per goal cell: its group */
    size_t ncells;
    size_t ngroups;
    int32_t *box;             /* per group: x0 y0 x1 y1, inclusive cells */
} ff_goal_groups;

/* Group the cells that are goals in any of the nmasks masks (w*h bytes
 * each, non-zero on a goal).  FF_ENOMEM on failure (g left empty). */
ff_status ff_goal_groups_init(ff_goal_groups *g, int32_t w, int32_t h,
                              const uint8_t *const *masks, size_t nmasks, ff_error *err);
void ff_goal_groups_free(ff_goal_groups *g);

/* The group of cell, or -1 when it is not a goal cell. */
long ff_goal_group_of(const ff_goal_groups *g, uint32_t cell);

#ifdef __cplusplus
}
#endif

#endif
