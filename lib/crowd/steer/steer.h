/* steer.h - the steering of one agent (man 1 ffsim, man 5 ffsim
 * "BEHAVIOURS"): the behaviours, their blend by priority groups (blend.h),
 * the integration with speed, acceleration and turn limits, the move with
 * wall sliding, the escape from a blocked cell.  For lib/crowd's own use:
 * the tick (crowd.c) calls it, agent by agent.
 */
#ifndef FF_STEER_H
#define FF_STEER_H

#include "crowdint.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the steering of one agent reads (steer.c): filled by the tick. */
typedef struct {
    const ff_crowd *c;
    const ff_agent *a;
    size_t index;
    const ff_agent_class *cls;
    long long cx, cy;   /* the agent's cell */
    const uint8_t *dir; /* the class's directions */
    int own;            /* 1: follow steers to (tx, ty), its own path */
    double tx, ty;
    const ff_shash_entry *e; /* the agent's entry in the hash */
    ff_crowd *collect;  /* non-NULL: the separate scan also gathers the
                           contact candidates (ff_contacts_collect) ... */
    double cand_reach;  /* ... nearer than this at the start of the tick */
    int scanned;        /* 1 once they are gathered for this agent */
    int cells;          /* 1: (fx, fy) is the position in cell units, in
                           the map, and computed exactly (pow2_cell): one
                           cell computation for the field, the near-wall
                           map and the slide, as the product by 1/cell is
                           then the quotient */
    double fx, fy;
    unsigned long long lookups; /* follow's field reads this step */
} agent_ctx;

/* One steering step of agent index (present, not arrived) from the
 * context q that the tick filled (the agent's hash entry, its cell facts,
 * the candidate gathering): blend its behaviours, accelerate, turn, move
 * with wall sliding; or escape from a blocked cell, wait for a stale
 * field, walk an own path. */
void ff_steer_agent(ff_crowd *c, size_t index, agent_ctx *q);

#ifdef __cplusplus
}
#endif

#endif
