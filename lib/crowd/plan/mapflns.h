/* mapflns.h - the improvement of a multi-agent plan by large-neighbourhood
 * search (Li, Chen, Harabor, Stuckey and Koenig, "Anytime Multi-Agent
 * Path Finding via Large Neighborhood Search", IJCAI 2021; its adaptive
 * choice of neighbourhoods as in MAPF-LNS2, Li et al., AAAI 2022): a
 * group of agents is taken out, planned again one after another by
 * space-time A* round the others' paths, and kept when the group's sum of
 * costs falls (man 1 ffsim, "PLANS").  It knows no crowd: the crowd
 * (lib/crowd/crowdplan.c) gives it paths, goals and a heuristic.
 *
 * The rules are those of cell-to-cell moves with reservations and
 * 'arrived stay': one step a tick to one of the 4 neighbours of a cell,
 * or a wait; no two agents on one cell at one tick, no two swapping
 * cells; an agent stays on its goal after the end of its path.  Following
 * another (into the cell it leaves at the same tick) is allowed.
 */
#ifndef FF_MAPFLNS_H
#define FF_MAPFLNS_H

#include <stddef.h>
#include <stdint.h>

#include "fferror.h"
#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The steps from cell to agent's goal at least (a lower bound: the hop
 * count of its goal's field), or -1 when no way leads there. */
typedef long (*ff_mapf_steps_fn)(void *ctx, size_t agent, uint32_t cell);

/* A plan of n agents on grid (its open cells, 4 moves).  path[i] holds
 * agent i's cells at ticks 0 .. len[i] - 1 (len[i] >= 1); its last is
 * goal[i], where the agent stays; len[i] - 1 is its cost.  The arrays
 * path[i] are malloc'd and owned by the caller; ff_mapf_improve replaces
 * them (freeing the ones it drops).  The plan given must keep the rules. */
typedef struct {
    const ff_grid *grid;
    size_t n;
    const uint32_t *goal;      /* per agent */
    uint32_t **path;           /* per agent (in, out) */
    size_t *len;               /* per agent (in, out) */
    ff_mapf_steps_fn steps;    /* the heuristic, with ... */
    void *ctx;                 /* ... this first argument */
} ff_mapf_plan;

/* What an improvement did. */
typedef struct {
    unsigned long long iterations;  /* neighbourhoods tried */
    unsigned long long improved;    /* of them, kept */
    unsigned long long expansions;  /* space-time A* states expanded */
    long long cost_before, cost_after; /* sums of costs */
} ff_mapf_stats;

/* Improve plan pl with at most budget expansions of the searches (and
 * one more search's bound), the choices drawn from seed: the same plan,
 * budget and seed give the same result.  The sum of costs never rises,
 * and the plan keeps the rules.  FF_ENOMEM (the plan is then as it was,
 * or improved and whole). */
ff_status ff_mapf_improve(ff_mapf_plan *pl, unsigned long long budget, uint64_t seed, ff_mapf_stats *st,
                          ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
