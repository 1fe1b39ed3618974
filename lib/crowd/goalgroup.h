/* goalgroup.h - the goal cells of a map in groups, one per exit: the
 * 8-connected components of the goal cells, so that a summary can say
 * how a crowd split between its exits (man 1 ffsim, "SUMMARY").
 *
 * Groups are numbered in the row-major order of their first cell (their
 * north-westernmost cell by rows).  A goal groups record owns its
 * arrays; ff_goal_groups_free() releases them.
 */
#ifndef FF_GOALGROUP_H
#define FF_GOALGROUP_H

#include <stddef.h>
#include <stdint.h>

#include "fferror.h"

typedef struct {
    int32_t w, h;             /* cells */
    uint32_t *group;          /* w*h: the group of a goal cell, from 1;
                                 0 off the goals */
    size_t ngroups;
    uint32_t *first;          /* per group (from 0): its first cell */
    int32_t *box;             /* per group: x0 y0 x1 y1, inclusive cells */
} ff_goal_groups;

/* Group the cells that are goals in any of the nmasks masks (w*h bytes
 * each, non-zero on a goal).  FF_ENOMEM on failure (g left empty). */
ff_status ff_goal_groups_init(ff_goal_groups *g, int32_t w, int32_t h,
                              const uint8_t *const *masks, size_t nmasks, ff_error *err);
void ff_goal_groups_free(ff_goal_groups *g);

#endif
