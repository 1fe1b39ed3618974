/* lacam.h - the complement of PIBT: when the grant makes no progress, a
 * search of configurations (LaCAM) for a plan that brings the agents
 * away to their goals (man 1 ffsim, "RESERVATIONS").  For lib/crowd's
 * own use: the grid moves (gridmove.c) call it; it calls nothing of
 * theirs nor PIBT's.
 */
#ifndef FF_LACAM_H
#define FF_LACAM_H

#include "crowdint.h"
#include "reserve.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Before this tick's grant of requests 0..n (their cells marked, none
 * decided): when the complement's plan is walked, or PIBT has made no
 * progress for a while and the complement's search finds a plan, each
 * request's next cell in rq->req[k].next and 1; 0 when PIBT decides;
 * -1 (err set to FF_ENOMEM) on allocation failure. */
int ff_lacam_tick(ff_crowd *c, ff_requests *rq, size_t n, ff_error *err);
/* A wait-for cycle among requests 0..n: 1 when the complement will
 * search for a way out at the next tick (the cycle is not reported yet),
 * 0 when it cannot run, has already searched in vain since the last
 * progress, or a search gave up fewer ticks ago than its patience (then
 * the cycle is a deadlock). */
int ff_lacam_defer(ff_crowd *c, const ff_requests *rq, size_t n);
/* 1 when the complement's search proved that no sequence of moves brings
 * every agent to its goal from where they stand (the run is over). */
int ff_lacam_proved(const ff_crowd *c);
/* Bound crowd c's complement searches by work agent-visits instead of
 * lacam.c's LACAM_WORK (a search gets a quarter of it, twice as much
 * after each that gave up, up to all of it), for tests that make
 * searches give up.  -1 out of memory. */
int ff_lacam_set_work(ff_crowd *c, unsigned long long work);
/* The agent-visits crowd c's next complement search may take. */
unsigned long long ff_lacam_bound(const ff_crowd *c);
void ff_lacam_free(ff_crowd *c);

#ifdef __cplusplus
}
#endif

#endif
