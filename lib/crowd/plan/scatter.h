/* scatter.h - paths in space that spread the agents of a multi-agent
 * plan over the map before it is made: Okumura's "space utilisation
 * optimisation" ("Engineering LaCAM*: Towards Real-Time, Large-Scale, and
 * Near-Optimal Multi-Agent Pathfinding", AAMAS 2024, its scatter).  Each
 * agent's path (one step a tick, 4 moves, never a wait) is the one of
 * fewest collisions with the others' paths, then the shortest, within its
 * distance and a margin; the agents are planned again round after round,
 * in a fresh random order, while the collisions fall.  A plan's first
 * solution then steers each agent along its path where it can (man 1
 * ffsim, "PLANS").  It knows no crowd: the caller gives the grid, the
 * starts, the goals and a heuristic (mapflns.h's).
 *
 * A collision of agent i's step from cell v to cell u at tick t with
 * agent j: j on u at tick t + 1, j stepping from u to v then (a swap),
 * or u j's goal and t + 1 past j's path (j stays there).
 */
#ifndef FF_SCATTER_H
#define FF_SCATTER_H

#include <stddef.h>
#include <stdint.h>

#include "fferror.h"
#include "grid.h"
#include "mapflns.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The scatter of n agents on grid (its open cells, 4 moves): path[i]
 * holds agent i's cells from its start (path[i][0]) to its goal
 * (path[i][len[i] - 1]), no cell twice, each a step from the last; len[i]
 * 0 (path[i] NULL) when none was found (no way, or the work ran out
 * before its first).  The arrays are malloc'd (ff_mapf_scatter_free). */
typedef struct {
    size_t n;
    uint32_t **path;
    size_t *len;
    unsigned long long collisions;  /* of the paths kept, counted as above */
    unsigned long long rounds;      /* rounds over the agents begun */
    unsigned long long expansions;  /* cells the searches expanded */
} ff_mapf_scatter;

/* Scatter n agents from start[i] to goal[i] on grid g, steps the lower
 * bound of the steps to an agent's goal (with ctx), each path at most
 * margin steps longer than its start's bound: rounds while the
 * collisions fall (two at least), the orders drawn from seed, with at most
 * work expansions in all (a search cut short keeps the agent's last
 * path, and ends the rounds); no paths at all when the map's cells times
 * the longest bound pass 33,554,432 (the collisions' table, 64 MB).
 * The same arguments give the same paths.
 * FF_ENOMEM (sc then holds nothing). */
ff_status ff_mapf_scatter_make(const ff_grid *g, size_t n, const uint32_t *start, const uint32_t *goal,
                               ff_mapf_steps_fn steps, void *ctx, long margin, unsigned long long work,
                               uint64_t seed, ff_mapf_scatter *sc, ff_error *err);

void ff_mapf_scatter_free(ff_mapf_scatter *sc);

#ifdef __cplusplus
}
#endif

#endif
