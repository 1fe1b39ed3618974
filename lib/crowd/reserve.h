/* reserve.h - cell and edge reservations for agents that move cell to
 * cell (man 1 ffsim, "RESERVATIONS").
 *
 * Each tick every agent present asks for the cells its footprint will
 * cover next (its vertex) by listing the next cells of its center in
 * order of preference; an agent with no candidate stays and keeps its
 * cells.  Requests are granted in one fixed order: ascending priority,
 * then longer wait first, then ascending id; never the order in which
 * they were given.  A candidate is refused when a cell of its footprint
 * is reserved by another agent, held by another that stays, or held by
 * one that moves into this agent's cells (an edge swap), and, for a
 * diagonal step, when another diagonal step this tick passes through the
 * same grid corner (a crossing).  A candidate held by an agent not yet
 * decided waits for that agent's decision; when no one can be decided,
 * those agents try their other candidates as if refused, then stay.
 * A request that waits is looked at again as soon as the one it waits
 * on is decided, before anyone later in the order: its place in the
 * order is kept, and a tick costs O(n) however long the queues.
 *
 * A footprint is the square of cells within 'half' cells (Chebyshev) of
 * the center cell: 0 for an agent whose radius is at most half a cell.
 */
#ifndef FF_RESERVE_H
#define FF_RESERVE_H

#include <stddef.h>
#include <stdint.h>

#include "fferror.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FF_RESERVE_NONE UINT32_MAX

typedef struct {
    uint32_t cell;          /* current center cell, y * w + x */
    int32_t half;           /* footprint half-width in cells, >= 0 */
    long priority;          /* lower is served first */
    long long waited;       /* ticks waited so far; longer first */
    uint32_t id;            /* the last tie-break */
    int ncand;              /* 0..8 */
    uint32_t cand[8];       /* next center cells, preferred first; each
                               a neighbour of cell */
    int granted;            /* out: index into cand, or -1: stays */
    uint32_t blocker;       /* out: when not granted, the request that
                               held its first candidate (FF_RESERVE_NONE
                               for none) */
} ff_reserve_request;

typedef struct {
    int32_t w, h;
    uint32_t stamp;         /* this tick's mark */
    uint32_t *occ, *occ_stamp;     /* w*h: request on the cell now */
    uint32_t *res, *res_stamp;     /* w*h: request holding it next */
    uint32_t *corner, *corner_stamp; /* (w+1)*(h+1): diagonal crossing */
    uint32_t *order;        /* scratch, grant order */
    uint8_t *decided;       /* scratch: 0 undecided, 1 moves, 2 stays */
    uint32_t *dep_head;     /* scratch: first request waiting on it */
    uint32_t *dep_next;     /* scratch: the next one waiting on the same */
    uint32_t *stack;        /* scratch: decided requests to look at */
    size_t cap;
} ff_reserver;

ff_status ff_reserver_init(ff_reserver *r, int32_t w, int32_t h, ff_error *err);
void ff_reserver_free(ff_reserver *r);

/* Decide every request of one tick (see above); fills granted and
 * blocker.  Afterwards ff_reserve_holder() tells who holds a cell for
 * the next tick.  FF_ENOMEM on failure. */
ff_status ff_reserve_grant(ff_reserver *r, ff_reserve_request *req, size_t n, ff_error *err);

/* The request index holding cell for the next tick, or FF_RESERVE_NONE. */
uint32_t ff_reserve_holder(const ff_reserver *r, uint32_t cell);

/* Take the footprint (center, half) for the next tick for a newcomer
 * numbered who: 1 when every cell of it was free, 0 (nothing taken)
 * otherwise. */
int ff_reserve_claim(ff_reserver *r, uint32_t center, int32_t half, uint32_t who);

/* Wait-for cycles: waits_on[i] is the node i waits on, or
 * FF_RESERVE_NONE.  Sets cycle[i] to the number (from 0, in order of
 * their lowest node) of the cycle node i lies on, or -1, and returns the
 * number of cycles. */
size_t ff_reserve_cycles(const uint32_t *waits_on, size_t n, int32_t *cycle, uint8_t *scratch);

#ifdef __cplusplus
}
#endif

#endif
