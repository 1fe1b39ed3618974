/* prioorder.h - the order of agents by priority, as the complement's
 * search (lacam.c) takes them at a configuration: higher priority first,
 * then the lower index.  Priorities are floats (LaCAM's: the steps an
 * agent has been off its goal, plus a fraction); -0 is +0, and a NaN
 * among them, which has no place in that order, gets a shell sort's
 * (the same one each time).  No allocation: the caller gives scratch.
 */
#ifndef FF_PRIOORDER_H
#define FF_PRIOORDER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sort agents 0..n by priorities p into o.  held: 1 when o holds an
 * order to start from (of a configuration near this one: sorted from it
 * by insertion while that is quick), 0 when it holds nothing.  key and
 * tmp: scratch of n each. */
void ff_prio_order(uint32_t *o, const float *p, size_t n, int held, uint32_t *key, uint32_t *tmp);

/* Replace o, the order of a parent configuration, by that of its child
 * with priorities p: 1, or 0 (o unchanged) when the child's does not
 * follow from it as LaCAM's priorities do (an agent off its goal: its
 * parent's plus one, 1 or more; on it: the fraction, under 1).  off and
 * on: scratch of n each. */
int ff_prio_order_child(uint32_t *o, const float *p, size_t n, uint32_t *off, uint32_t *on);

#ifdef __cplusplus
}
#endif

#endif
