/* crowdplan.h - MAPF plans: for a crowd whose agents all have own goals,
 * enter at tick 0 and stay on them ('move grid', 'reserve on', 'arrived
 * stay'), a plan made before the first move and improved (man 1 ffsim,
 * "PLANS"), which the grid moves then walk (grid/planwalk.c).  For
 * lib/crowd's own use: the tick (crowd.c) plays the first plan, the
 * online rule's run, and calls it.
 */
#ifndef FF_CROWDPLAN_H
#define FF_CROWDPLAN_H

#include "crowdint.h"
#include "hopplanes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The agent-ticks a record holds at most (64 MB of cells). */
#define FF_PLAN_RECORD_MAX ((size_t)1 << 24)

/* A run's cells, tick by tick: n a tick (the agents', by index), nticks
 * of them, room for cap (malloc'd; the caller frees cells); refused (no
 * plan) once the run goes on past FF_PLAN_RECORD_MAX agent-ticks, or
 * when an agent could not enter at tick 0 (its cell taken). */
typedef struct {
    uint32_t *cells;
    size_t nticks, cap;
    int refused;
    ff_hopplanes planes;       /* the heuristic of the scatter and then of
                                  the search (hopplanes.h), made once ... */
    int planes_made;           /* ... when this is 1 */
} ff_plan_record;

/* Free what rec holds (its cells and planes). */
void ff_crowd_plan_record_free(ff_plan_record *rec);

/* 1 when crowd c's scenario is one for a plan: plan-effort above 0,
 * cell-to-cell moves with reservations and 'arrived stay', every agent
 * with a goal of its own, every class's disk within a cell, 4 moves over
 * cells of one cost (no turn costs).  The plan is then that of the
 * agents of tick 0, when there are two or more. */
int ff_crowd_plan_applies(const ff_crowd *c);

/* Before crowd run's tick 0 (the online rule on the agents of a plan's
 * crowd), its agents' scatter (plan/scatter.c, with run's own goals'
 * hop counts as its heuristic, rec's planes), which its grid moves then
 * try first (grid/prefsteps.h).  FF_ENOMEM. */
ff_status ff_crowd_plan_scatter(ff_crowd *run, ff_plan_record *rec, ff_error *err);

/* Add the cells crowd r's agents stand on after its last tick to rec
 * (or set rec->refused).  FF_ENOMEM. */
ff_status ff_crowd_plan_record(const ff_crowd *r, ff_plan_record *rec, ff_error *err);

/* From rec, the run of crowd run (the online rule on the agents of c's
 * tick 0, run's agent k being c's index[k], which brought every agent to
 * its goal), the first plan (each agent's cells up to its last arrival);
 * improve it by c's plan-effort thousand search expansions
 * (plan/mapflns.c, with run's own goals' fields as its heuristic) and
 * give it to c's grid moves.  FF_ENOMEM. */
ff_status ff_crowd_plan_make(ff_crowd *c, ff_crowd *run, ff_plan_record *rec, const uint32_t *index,
                             ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
