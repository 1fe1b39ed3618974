/* pibt.h - the grant of cell-to-cell moves with reservations: priority
 * inheritance with backtracking (PIBT) over the tick's requests (man 1
 * ffsim, "RESERVATIONS").  For lib/crowd's own use: the grid moves
 * (gridmove.c) call it; it calls nothing of theirs.
 */
#ifndef FF_PIBT_H
#define FF_PIBT_H

#include "crowdint.h"
#include "reserve.h"

#ifdef __cplusplus
extern "C" {
#endif

/* PIBT's own state: only pibt.c changes it. */
struct ff_pibt {
    const ff_requests *rq;     /* the grid moves' requests (borrowed) ... */
    ff_reserve_request *req;   /* ... their arrays, which never move */
    const uint32_t *req_agent;
    const uint8_t *kept;
    const ff_footprint *cls;
    struct ff_pibt_cell *cell; /* w*h: each cell's marks of the tick */
    uint32_t *order;           /* per request: the grant order */
    uint32_t *prev;            /* the last grant order, as agents ... */
    size_t nprev;              /* ... this many */
    uint32_t *req_of;          /* per agent: its request (scratch) */
    uint8_t *placed;           /* per request: in the order (scratch) */
    struct ff_pibt_key *key;   /* per request: its order's keys (scratch) */
    uint32_t stamp;
    int32_t step[8];           /* the cell offset of a step in each direction */
    uint16_t *open9;           /* w*h: the map's open cells round each
                                  (make_open9) ... */
    long long open9_tick;      /* ... for the map of this map_tick */
    int open9_made;
    int full_turns;            /* 1: every turn is PIBT's whole turn, none
                                  the short one of an agent at rest (the
                                  same moves and counts, slower: a check
                                  for tests); 0 after init */
    unsigned long long rest_turns; /* turns taken short, at rest */
    uint8_t *rest;             /* per request: 1 + its direction lookups
                                  when its last turn was short, else 0 ... */
    int rest_made;             /* ... 1 when the last tick's turns made
                                  them (not the complement's plan), ... */
    long long rest_map;        /* ... on the map of this map_tick ... */
    unsigned long long rest_builds; /* ... and goals.builds */
};

/* Make c->pibt: the grant's marks and scratch for a map of c->grid's
 * size and up to nagents requests, those of rq (the grid moves', which
 * must outlive it); FF_ENOMEM on failure (ff_pibt_free frees what was
 * taken). */
ff_status ff_pibt_init(ff_crowd *c, const ff_requests *rq, size_t nagents, ff_error *err);
void ff_pibt_free(ff_crowd *c);

/* A tick's grant of requests 0..n (their cost and cls set), in two
 * halves round the complement's turn (lacam.h), which the grid moves
 * take between them: ff_pibt_begin marks the requests' cells and orders
 * them (with n = 0, only a new tick's marks, for the spawns);
 * ff_pibt_grant then decides them by priority inheritance with
 * backtracking, or when planned is 1 takes the next cells the
 * complement's plan set: each granted request's next center in cand
 * (granted 0), the others staying (granted -1); ncand 1 when it asked to
 * move, blocker whom its best cell was refused for. */
void ff_pibt_begin(ff_crowd *c, size_t n);
void ff_pibt_grant(ff_crowd *c, size_t n, int planned);
/* Agent i enters (reservations): its start's cost to goal, for the grant
 * order. */
void ff_pibt_enter(ff_crowd *c, size_t i);
/* Take footprint (center, half) for the next tick for a newcomer: 1 when
 * every cell of it was free, 0 (nothing taken) otherwise. */
int ff_pibt_claim(ff_crowd *c, uint32_t center, int32_t half);

#ifdef __cplusplus
}
#endif

#endif
