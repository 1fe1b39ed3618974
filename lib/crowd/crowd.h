/* crowd.h - the per-tick crowd simulation that ffsim replays: behaviours
 * blended by priority groups, integration with speed, acceleration and
 * turn limits, moves with wall sliding, overlap resolution, arrival, and
 * the trace and summary writers (man 1 ffsim).
 *
 * Determinism: every loop runs in a fixed order (agents by ascending id,
 * hash buckets by coordinates, slots in the order their points were
 * given), steering reads the positions every agent had at the start of the
 * tick, and every number is printed with a fixed format, so the same
 * field and scenario give the same trace bytes on every run.
 *
 * The crowd is an opaque handle (its parts' state is lib/crowd's own):
 * a caller reads it through the functions below.  A crowd borrows its
 * scenario, grid and direction channel, or its profiles (they must
 * outlive it), and owns everything else; ff_crowd_delete() releases it.  With profiles, a tick first applies the
 * scenario's map events of that tick (ff_profiles_tick) and rebuilds the
 * walls when the map changed; with 'move grid' the steering steps are
 * replaced by cell-to-cell moves, with reservations when asked.
 */
#ifndef FF_CROWD_H
#define FF_CROWD_H

#include <stdint.h>
#include <stdio.h>

#include "blend.h"
#include "crowdstate.h"
#include "fferror.h"
#include "grid.h"
#include "profiles.h"
#include "scenario.h"

#ifdef __cplusplus
extern "C" {
#endif


/* A crowd for scenario s whose classes follow the fields of profiles p
 * (built for s) on p's current map, with map events, stale fields,
 * fallbacks, and with 'move grid' cell-to-cell moves and reservations;
 * smooth 1 follows the smoothed directions, 0 the raw ones.  Counts, per
 * class, the agents whose start cell has no way to a goal
 * (ff_crowd_unreachable).  Nothing moves until ff_crowd_step().  NULL on
 * failure, with err set (FF_ENOMEM, FF_EUSAGE). */
ff_crowd *ff_crowd_new(const ff_scenario *s, ff_profiles *p, int smooth, ff_error *err);

/* The same for a crowd that follows the direction channel dir (g's w*h
 * codes) of grid g, without profiles: no map events, own goals or
 * cell-to-cell moves. */
ff_crowd *ff_crowd_new_field(const ff_scenario *s, const ff_grid *g, const uint8_t *dir,
                             int smooth, ff_error *err);

/* Make follow steer crowd c (one of ff_crowd_new_field) by the unit
 * vectors vec, two floats a cell of its grid (an any-angle field's vector
 * channel, man 5 ff; borrowed, to outlive c), sampled as ffquery does
 * (bilinear, or the cell's own with raw directions); the codes dir still
 * say which cells lead nowhere.  Call it before the first step. */
void ff_crowd_follow_vectors(ff_crowd *c, const float *vec);

/* Free crowd c and everything it owns (not what it borrows); NULL is
 * allowed. */
void ff_crowd_delete(ff_crowd *c);

/* Run the next tick.  Tick 0 only places the agents whose spawn tick is 0
 * and resolves their overlaps; each later tick steers, integrates and
 * moves every agent present (or moves them cell to cell), adds that
 * tick's spawns, resolves overlaps, then measures and checks arrivals.
 * Deadlocks found in the tick are left for ff_crowd_deadlock.
 * FF_ENOMEM on allocation failure. */
ff_status ff_crowd_step(ff_crowd *c, ff_error *err);

/* Why a run is over (ff_crowd_check_over). */
enum {
    FF_OVER_NOT = 0,
    FF_OVER_ARRIVED,  /* every agent arrived (and left or stays) */
    FF_OVER_STOPPED,  /* the others stand where no way leads to a goal */
    FF_OVER_UNSOLVABLE, /* the complement's search proved that the agents
                          away can never all reach their goals */
    FF_OVER_STANDOFF  /* steering: the others are stuck or deadlocked */
};

/* After a step: FF_OVER_* when nothing can change any more (no spawn and
 * no map event to come, every agent arrived, and with cell-to-cell moves
 * the others stopped for good, see man 1 ffsim); the answer is kept. */
int ff_crowd_check_over(ff_crowd *c);

/* What a caller reads of one agent, copied out (world units: +x east,
 * +y south; ticks count from 0). */
typedef struct {
    double x, y;          /* position, world units */
    double vx, vy;        /* velocity over the last tick (its whole
                             displacement over the tick length), world
                             units/second */
    double hx, hy;        /* heading, a unit vector */
    uint32_t id;          /* the scenario's id */
    int32_t cls;          /* index into the scenario's classes */
    int32_t state;        /* ff_agent_state */
    long long spawn_tick;
    long long arrival_tick; /* -1 until it arrives */
} ff_agent_view;

/* The number of agents: the scenario's, present or not. */
size_t ff_crowd_agent_count(const ff_crowd *c);

/* Agent k (0 <= k < ff_crowd_agent_count, ascending id) as it stands
 * after the last tick, into *v. */
void ff_crowd_agent(const ff_crowd *c, size_t k, ff_agent_view *v);

/* The last tick done; -1 before the first ff_crowd_step. */
long long ff_crowd_tick(const ff_crowd *c);

/* Of class cls (an index into the scenario's classes): the agents whose
 * start has no way to a goal, counted at set-up and as own goals enter;
 * *first_id (when not NULL) the lowest id among them, when there is
 * any. */
size_t ff_crowd_unreachable(const ff_crowd *c, size_t cls, uint32_t *first_id);

/* The wait-for cycles found as deadlocks at the last tick: how many, and
 * cycle k's agent ids (*n of them; the crowd's array, valid until the
 * next step). */
size_t ff_crowd_deadlock_count(const ff_crowd *c);
const uint32_t *ff_crowd_deadlock(const ff_crowd *c, size_t k, size_t *n);

/* The steering agents found stuck at the last tick, each once a
 * standoff: their ids, ascending (*n of them, 0 with cell-to-cell moves;
 * the crowd's array, valid until the next step). */
const uint32_t *ff_crowd_stuck(const ff_crowd *c, size_t *n);

/* The trace's last line when the run ended early (ff_crowd_check_over): a comment
 * saying at which tick and why; nothing otherwise. */
ff_status ff_crowd_write_over(FILE *f, const ff_crowd *c, ff_error *err);

/* Write the trace's header lines (comments). */
ff_status ff_crowd_write_header(FILE *f, const ff_crowd *c, ff_error *err);

/* Write the trace lines of the last tick: one per agent present, and one
 * with state "arrived" for each agent that arrived and left at that tick:
 *   tick id x y vx vy heading radius state
 * with x y vx vy radius to 4 decimals and heading in degrees to 2. */
ff_status ff_crowd_write_tick(FILE *f, const ff_crowd *c, ff_error *err);

typedef struct {
    size_t agents;            /* in the scenario */
    size_t spawned;           /* that entered by the last tick */
    size_t arrived;
    double arrival_median;    /* tick; NaN when none arrived */
    long long arrival_p95;    /* tick (nearest rank); -1 when none */
    size_t stuck;             /* stopped at the end: no direction */
    size_t deadlocked;        /* deadlocked at the end */
    size_t unreachable;       /* with no way to a goal at the start */
    unsigned long long field_builds, field_bytes;
    unsigned long long field_cache_hits; /* fields taken from a cache */
    unsigned long long goal_changes;     /* goal changes applied, of
                                 classes and of agents */
    unsigned long long goal_cache_hits;  /* of those, the new field taken
                                 from a cache (a class's) or built already
                                 (an agent's own goal's) */
    unsigned long long tick_overruns; /* set by the caller (--realtime) */
    double run_seconds;       /* set by the caller: processor seconds of
                                 the run, its first fields and every tick,
                                 not reading nor writing (timing) */
    double rebuild_seconds;   /* the longest rebuild after a map event
                                 (processor seconds; timing) */
    size_t remaining;         /* present at the end, neither arrived nor
                                 stuck */
    size_t ngoal_groups;      /* the goal cells' 8-connected groups */
    const size_t *group_arrived; /* per group: agents that arrived there
                                 (the crowd's: valid while it lives) */
    const int32_t *group_box; /* per group: x0 y0 x1 y1, cells (the
                                 crowd's) */
    unsigned long long congestion_refreshes;
    double congestion_seconds; /* processor seconds refreshing (timing) */
    ff_crowd_stats stats;
    long long ticks;
    long long makespan;       /* the first tick at which every agent stood
                                 on its goal; -1 when none */
    long long sum_of_costs;   /* per agent, the tick of its last arrival
                                 (it stayed), summed; -1 unless every agent
                                 ends on its goal */
    long long over;           /* the tick after which nothing could change
                                 (the run ended there); -1 when it ran its
                                 ticks */
} ff_crowd_summary;

/* Gather the summary of the run so far.  FF_ENOMEM on failure. */
ff_status ff_crowd_summarise(const ff_crowd *c, ff_crowd_summary *sum, ff_error *err);

/* Write it, one "key value" a line (a "goal_arrivals X0,Y0,X1,Y1 N" line
 * per goal group); steps_per_second < 0 leaves out the timing lines
 * (rebuild_seconds, congestion_seconds, run_seconds and
 * agent_steps_per_second, the only ones that differ between runs). */
ff_status ff_crowd_write_summary(FILE *f, const ff_crowd_summary *sum,
                                 double steps_per_second, ff_error *err);

/* The same keys in the same order as one JSON object (RFC 8259): numbers
 * as numbers, "-" as null, the goal groups as "goal_arrivals": [{"box":
 * [X0, Y0, X1, Y1], "arrived": N}, ...]. */
ff_status ff_crowd_write_summary_json(FILE *f, const ff_crowd_summary *sum,
                                      double steps_per_second, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
