/* planwalk.h - the walk of a MAPF plan made before the first move
 * (crowdplan.c makes it): each tick the plan's next cells decide the
 * grant, until the crowd stops fitting it (man 1 ffsim, "PLANS").  For
 * lib/crowd's own use: the grid moves (gridmove.c) call it.
 */
#ifndef FF_PLANWALK_H
#define FF_PLANWALK_H

#include "crowdint.h"
#include "reserve.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A plan: n agents (their indices, ascending), each one's cells at ticks
 * 0 .. len - 1 (it stays on the last), made on the map of map_tick for
 * the goal fields agent_goal gave them then. */
struct ff_planwalk {
    size_t n;
    uint32_t *agent;           /* per planned agent: its crowd index */
    uint32_t *goal;            /* its goal field when planned */
    uint32_t **path;           /* its cells a tick */
    size_t *len;
    long long map_tick;
};

/* Give crowd c the plan of n agents agent[] (ascending indices) with
 * paths path[k] of len[k] cells each, from tick 0 on the current map: the
 * crowd takes the arrays (malloc'd; freed by ff_planwalk_free, also on
 * failure).  FF_ENOMEM. */
ff_status ff_planwalk_set(ff_crowd *c, size_t n, uint32_t *agent, uint32_t **path, size_t *len,
                          ff_error *err);

/* The hook of every event: before the grant of tick c->tick (requests
 * 0..n, cells marked), when the plan still fits (the same agents, each
 * where the plan has it, the same map and goals), each request's next
 * cell in rq->req[k].next and 1; otherwise 0, and the plan is dropped for
 * good (a map event, a spawn, a goal change, or no plan): the online rule
 * decides from this tick on. */
int ff_planwalk_tick(ff_crowd *c, ff_requests *rq, size_t n);

void ff_planwalk_free(ff_crowd *c);

#ifdef __cplusplus
}
#endif

#endif
