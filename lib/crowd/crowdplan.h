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

/* The tries of a plan's first solution, each the online rule's run
 * steered by a scatter of its own seed (a portfolio): the cheapest run's
 * cells (as a record's), its sum of costs, and what the tries spent. */
typedef struct {
    uint32_t *cells;           /* malloc'd (ff_crowd_plan_tries_free) */
    size_t nticks, cap;
    long long cost;            /* the cheapest run's sum of costs, -1 for none yet */
    long long bound;           /* the agents' hop counts to their goals, summed */
    unsigned tries;            /* runs made */
    unsigned long long work;   /* the tries' after the first: their scatters'
                                  expansions, agent-ticks and complement's
                                  agent-visits */
    unsigned long long scatter_work; /* the last scatter's expansions */
    uint64_t seed;             /* the next try's scatter seed */
} ff_plan_tries;

/* Tries before the first: none made, the first seed the default. */
void ff_crowd_plan_tries_init(ff_plan_tries *pt);

void ff_crowd_plan_tries_free(ff_plan_tries *pt);

/* After a try (crowd run played to its end into rec; arrived 1 when it
 * brought every agent to its goal): keep its cells in pt when it is the
 * cheapest so far (rec then holds the one it beat, or none), clear rec's
 * cells for the next try, and say whether to make one (1) with
 * pt->seed.  Another try is made only while the cheapest costs over
 * twice the bound and the work allows (man 1 ffsim, "PLANS"). */
int ff_crowd_plan_try_again(ff_plan_tries *pt, ff_crowd *run, ff_plan_record *rec, int arrived);

/* The cheapest try's cells into rec (rec's own cells freed); 0 when no
 * try brought every agent to its goal. */
int ff_crowd_plan_tries_best(ff_plan_tries *pt, ff_plan_record *rec);

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
 * try first (grid/prefsteps.h); from pt's seed, its expansions added to
 * pt's work.  FF_ENOMEM. */
ff_status ff_crowd_plan_scatter(ff_crowd *run, ff_plan_record *rec, ff_plan_tries *pt, ff_error *err);

/* Add the cells crowd r's agents stand on after its last tick to rec
 * (or set rec->refused).  FF_ENOMEM. */
ff_status ff_crowd_plan_record(const ff_crowd *r, ff_plan_record *rec, ff_error *err);

/* From rec, the run of crowd run (the online rule on the agents of c's
 * tick 0, run's agent k being c's index[k], which brought every agent to
 * its goal), the first plan (each agent's cells up to its last arrival);
 * improve it by c's plan-effort thousand search expansions, less a
 * quarter of tries_work (the portfolio's, ff_plan_tries; half of them
 * kept at least), by plan/mapflns.c with run's own goals' fields as its
 * heuristic, and give it to c's grid moves.  FF_ENOMEM. */
ff_status ff_crowd_plan_make(ff_crowd *c, ff_crowd *run, ff_plan_record *rec, unsigned long long tries_work,
                             const uint32_t *index,
                             ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
