/* angular.h - the steered heading (man 5 ffsim, "BEHAVIOURS"; man 1
 * ffsim, "A tick"): the angular behaviours face, look-ahead and align,
 * and the integration of the heading with the class's turn and
 * angular-accel.  Classes without an angular behaviour keep the heading
 * the steering turns toward the velocity (steer.c); this part is for the
 * others.  The crowd holds its state and frees it; the steering (steer.c)
 * calls it agent by agent.
 */
#ifndef FF_ANGULAR_H
#define FF_ANGULAR_H

#include "crowdint.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Make crowd c's angular state (c->angular) for na agents when one of
 * its classes has an angular behaviour, else leave it NULL; FF_ENOMEM.
 * ff_angular_free frees it (NULL is fine). */
ff_status ff_angular_init(ff_crowd *c, size_t na, ff_error *err);
void ff_angular_free(ff_crowd *c);

/* At the start of a steering tick: the headings align reads, as they
 * are before any agent turns (when a class aligns; else nothing). */
void ff_angular_begin(ff_crowd *c);

/* Agent i's proposal for angular behaviour b (face, look-ahead, align):
 * a turn rate in steering units, a fraction of its class's turn in
 * [-1, 1], positive clockwise (toward +y from +x), 0 when it asks for
 * nothing.  e is the agent's entry in the start-of-tick hash. */
double ff_angular_propose(const ff_crowd *c, size_t i, const ff_shash_entry *e, const ff_behaviour *b);

/* Agent i's turn of the tick toward the turn rate w (steering units, cut
 * to [-1, 1]): its turn rate moves toward w times turn by at most
 * angular-accel times the tick, stays within turn, and its heading turns
 * by the rate times the tick. */
void ff_angular_turn(ff_crowd *c, size_t i, double w);

#ifdef __cplusplus
}
#endif

#endif
