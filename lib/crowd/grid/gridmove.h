/* gridmove.h - cell-to-cell moves ('move grid'): each tick's requests,
 * their grant (by reservation: pibt.c, and its complement lacam.c, which
 * the grid moves choose between and call), waits, own paths round held
 * cells, wait-for cycles, spawns and the overlap measure.  For lib/crowd's
 * own use: the tick (crowd.c) calls it.
 */
#ifndef FF_GRIDMOVE_H
#define FF_GRIDMOVE_H

#include "crowdint.h"
#include "reserve.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The grid moves' own state: only gridmove.c changes it. */
struct ff_gridmove {
    ff_requests rq;            /* this tick's requests */
    size_t nreq_last;          /* requests of the last tick */
    uint32_t *waits_on;        /* per request: wait-for edge */
    int32_t *cycle;
    uint8_t *cycle_scratch;
    uint32_t *spawn_scratch;
    uint32_t *cell_seen;       /* the overlap measure's table of cells */
    size_t cell_seen_mask;     /* its size - 1 (a power of 2 - 1) */
    int in_cell;               /* 1: every class's disk lies within a cell */
    uint32_t *settled;         /* per agent: the cell round which it last
                                  settled its own goal's field (UINT32_MAX:
                                  none) since ... */
    unsigned long long settled_builds; /* ... this many goal fields
                                  were built (goals.builds) ... */
    long long settled_map;     /* ... on the map of this map_tick */
    int shared;                /* the tick's agents: 1 when two share a cell ... */
    int off_center;            /* ... 1 when one is off its cell's center */
    size_t swept;              /* the last tick's waits on a step whose
                                  sweep touches a wall */
    uint8_t *still_mask;       /* w*h, made when first needed: the cells of
                                  agents still for wait-limit ticks, marked
                                  while own paths round them are planned,
                                  all 0 between */
};

/* Allocate c->gridmove: the requests, their scratch, the classes' facts
 * and (with reservations) the grant's marks for up to nagents agents; FF_ENOMEM
 * (ff_gridmove_free frees what was taken). */
ff_status ff_gridmove_init(ff_crowd *c, size_t nagents, ff_error *err);
/* Free c->gridmove and the grant's state it made (c->pibt, c->lacam). */
void ff_gridmove_free(ff_crowd *c);

/* Tick t of cell-to-cell moves: from tick 1 on the requests, grants,
 * waits, own paths round held cells and wait-for cycles; then the
 * spawns of tick t; and the overlap measure of where it leaves the
 * agents (ff_gridmove_overlap).  FF_ENOMEM. */
ff_status ff_gridmove_step(ff_crowd *c, long long t, ff_error *err);

/* After ff_gridmove_step, the largest overlap among the present agents
 * (c->live) when every class's disk lies within a cell
 * (ff_footprint_disk_in_cell) and every agent stands at a cell's center:
 * 1 when two share a cell (the pair measure's value: their centers
 * coincide), else 0; no pairs measured.  -1 when that does not hold (the
 * first in index order of an agent off a center and one on a shared
 * cell decides). */
double ff_gridmove_overlap(ff_crowd *c);

#ifdef __cplusplus
}
#endif

#endif
