/* standoff.h - steering agents that make no way to their goal: the
 * standoffs (man 1 ffsim, "STANDOFFS").  An agent whose cost to goal has
 * not gone below its lowest for the scenario's stuck-after seconds is in
 * a standoff; those that wait on each other round a cycle are
 * deadlocked and stop for good, the others are stuck (a jam) until they
 * make way again.  The crowd holds the state and calls it once a tick.
 */
#ifndef FF_STANDOFF_H
#define FF_STANDOFF_H

#include "crowdint.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Make crowd c's standoff state for na agents (c->standoff); FF_ENOMEM.
 * ff_standoff_free frees it (NULL is fine). */
ff_status ff_standoff_init(ff_crowd *c, size_t na, ff_error *err);
void ff_standoff_free(ff_crowd *c);

/* Agent i, steering on at the current tick from cell (its start), its
 * directions dir: its progress, when that cell's cost to goal is below
 * its lowest (no cost: its clock stops).  Called by the steering, whose
 * walk in space order keeps the reads in cache. */
void ff_standoff_progress(ff_crowd *c, size_t i, size_t cell, const uint8_t *dir);

/* At the end of steering tick t: each agent's progress; the fresh
 * standoffs, deadlocked ones left in c->deadlock_id / deadlock_start
 * (counted in c->stats.deadlocks), stuck ones in ff_standoff_stuck.
 * Cost: a pass over the agents, and a sort of those in a standoff. */
void ff_standoff_tick(ff_crowd *c, long long t);

/* The ids of the agents found stuck at the last tick, ascending (*n of
 * them; valid until the next tick). */
const uint32_t *ff_standoff_stuck(const ff_crowd *c, size_t *n);

/* 1 when agent i is stuck in a jam, as this file found. */
int ff_standoff_jammed(const ff_crowd *c, size_t i);

#ifdef __cplusplus
}
#endif

#endif
