/* reserve.h - the requests of agents that move cell to cell with
 * reservations, and the wait-for cycles among them (man 1 ffsim,
 * "RESERVATIONS").  The grant itself is the crowd's (pibt.c: priority
 * inheritance with backtracking).
 *
 * A footprint is the square of cells within 'half' cells (Chebyshev) of
 * the center cell: 0 for an agent whose radius is at most half a cell.
 */
#ifndef FF_RESERVE_H
#define FF_RESERVE_H

#include <stddef.h>
#include <stdint.h>

#include "costview.h"
#include "fferror.h"
#include "footprint.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FF_RESERVE_NONE UINT32_MAX

/* One agent's request of a tick; 64 bytes on LP64 systems (the crowd
 * keeps them aligned to 64: the grant visits them in priority order, at
 * random in memory, and reads one line a request). */
typedef struct {
    uint32_t cell;          /* current center cell, y * w + x */
    int32_t half;           /* footprint half-width in cells, >= 0 */
    long priority;          /* lower is served first */
    long long waited;       /* ticks waited so far; longer first */
    uint32_t id;            /* the last tie-break */
    int16_t ncand;          /* how many next cells it may take, 0..8 (0:
                               it asks to stay) */
    int16_t granted;        /* out: 0 when it moves to cand, -1: stays */
    uint32_t cand;          /* the preferred of them, a neighbour of cell
                               (when ncand > 0); out: its next center */
    uint32_t blocker;       /* out: when not granted, the request that
                               held its preferred cell (FF_RESERVE_NONE
                               for none) */
    uint32_t next;          /* the grant's: the decided next center, or
                               UINT32_MAX while undecided */
    int32_t cls;            /* the agent's class */
    ff_cost_view cost;      /* with reservations, the cost to goal its
                               moves are ordered by (borrowed: its field's),
                               no cells while stale */
} ff_reserve_request;

/* A tick's requests: the grid moves own them and fill them in
 * (gridmove.c); the grant (pibt.c) and its complement (lacam.c) read
 * them and write only their out fields. */
typedef struct {
    ff_reserve_request *req;  /* per request (aligned to 64) */
    uint32_t *agent;          /* per request: its agent's index */
    uint8_t *kept;            /* per request: 1 when it was the same
                                 agent's at the last tick (its footprint,
                                 priority, id and class kept), 2 when that
                                 agent has not moved since (its cell kept
                                 too), else 0 */
    int all_kept;             /* 1: every request of the tick was the same
                                 agent's at the last, as many */
    ff_footprint *cls;        /* per class: its footprint */
} ff_requests;

/* Wait-for cycles: waits_on[i] is the node i waits on, or
 * FF_RESERVE_NONE; a node waiting on itself is no cycle.  Sets cycle[i] to the number (from 0, in order of
 * their lowest node) of the cycle node i lies on, or -1, and returns the
 * number of cycles. */
size_t ff_reserve_cycles(const uint32_t *waits_on, size_t n, int32_t *cycle, uint8_t *scratch);

#ifdef __cplusplus
}
#endif

#endif
