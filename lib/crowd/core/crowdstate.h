/* crowdstate.h - the words a crowd's callers and its parts share: the
 * opaque crowd, the states of its agents and the counters of its run
 * (man 1 ffsim, "TRACE" and "SUMMARY").  crowd.h is the crowd's API.
 */
#ifndef FF_CROWDSTATE_H
#define FF_CROWDSTATE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The crowd: opaque; made by ff_crowd_new, freed by ff_crowd_delete
 * (crowd.h). */
typedef struct ff_crowd ff_crowd;

typedef enum {
    FF_AGENT_UNBORN = 0,  /* before its spawn tick: not in the simulation */
    FF_AGENT_MOVING,      /* steering and moving */
    FF_AGENT_ESCAPING,    /* standing in a blocked cell, walking out */
    FF_AGENT_STUCK,       /* its cell has no direction: stopped */
    FF_AGENT_WAITING_FIELD, /* its field is stale: stopped, not pushed */
    FF_AGENT_FALLBACK,    /* following its own A* path */
    FF_AGENT_DEADLOCKED,  /* on a wait-for cycle: stopped, not pushed */
    FF_AGENT_ARRIVED,     /* arrived and staying as an obstacle */
    FF_AGENT_GONE         /* arrived and left the simulation */
} ff_agent_state;

/* The trace's name of a state ("moving", "escaping", "stuck",
 * "waiting-field", "fallback", "deadlocked", "arrived"). */
const char *ff_agent_state_name(int state);

/* Counters over the whole run so far (man 1 ffsim, "SUMMARY"). */
typedef struct {
    size_t arrived;                 /* agents that arrived */
    unsigned long long wall_penetrations; /* agent-ticks ending nearer than
                                       the radius to a wall, or in one */
    double max_overlap;             /* largest pair overlap after
                                       resolution, as a fraction of the sum
                                       of the two radii */
    double jitter_sum;              /* degrees of heading change ... */
    unsigned long long jitter_moves;/* ... over this many agent-steps with
                                       a non-zero move */
    unsigned long long group_fallbacks; /* agent-steps where no priority
                                       group exceeded the threshold */
    unsigned long long escapes;     /* agent-steps spent escaping a blocked
                                       cell */
    unsigned long long agent_steps; /* agent-steps taken (ticks >= 1) */
    unsigned long long stale_ticks; /* agent-ticks waiting for a field */
    unsigned long long fallbacks;   /* own A* paths planned */
    unsigned long long reservation_waits; /* agent-ticks refused a move */
    unsigned long long deadlocks;   /* wait-for cycles found */
    unsigned long long sweep_failures; /* grid moves refused: the footprint
                                          would touch a wall on the way */
    unsigned long long direction_lookups; /* field reads to choose moves */
    unsigned long long queue_wait;  /* agent-ticks asked to move, stayed */
    unsigned long long complement_searches; /* livelocks searched (lacam.c) */
    unsigned long long complement_failures; /* searches that gave up */
    unsigned long long complement_nodes;    /* configurations they reached */
    unsigned long long complement_ticks;    /* ticks its plans decided */
    long long plan_online_cost;     /* MAPF plans: the online run's sum of
                                       costs the plan began from; -1 with
                                       no plan */
    unsigned long long plan_iterations; /* neighbourhoods it tried ... */
    unsigned long long plan_improved;   /* ... and kept */
    unsigned long long plan_ticks;      /* ticks the plan decided */
} ff_crowd_stats;

#ifdef __cplusplus
}
#endif

#endif
