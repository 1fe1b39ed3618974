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
 * A crowd borrows its scenario, grid and direction channel, or its
 * profiles (they must outlive it), and owns everything else;
 * ff_crowd_free() releases it.  With profiles, a tick first applies the
 * scenario's map events of that tick (ff_profiles_tick) and rebuilds the
 * walls when the map changed; with 'move grid' the steering steps are
 * replaced by cell-to-cell moves, with reservations when asked.
 */
#ifndef FF_CROWD_H
#define FF_CROWD_H

#include <stdint.h>
#include <stdio.h>

#include "congestion.h"
#include "goalgroup.h"
#include "goalfield.h"
#include "profiles.h"
#include "reserve.h"
#include "scenario.h"
#include "spatialhash.h"
#include "walls.h"

#ifdef __cplusplus
extern "C" {
#endif

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

typedef struct {
    double x, y;          /* position, world units */
    double vx, vy;        /* velocity over the last tick: its whole
                             displacement (move and overlap correction)
                             over the tick length, world units/second */
    double x0, y0;        /* position at the start of the tick */
    double hx, hy;        /* heading, a unit vector (+x east, +y south) */
    uint32_t id;
    int32_t cls;          /* index into the scenario's classes */
    int32_t state;        /* ff_agent_state */
    uint8_t own_path;     /* 1 when it may hold an own path (its plan); kept
                             here, in the padding, so that the common step
                             never touches the plans */
    uint8_t clear;        /* 1 when this tick's move ended no nearer than
                             the radius to any wall, as its slide found
                             (cell to cell: as its open cell shows); set
                             by the step, used and reset at the end of
                             the tick */
    long long spawn_tick;
    long long arrival_tick; /* -1 until it arrives */
} ff_agent;

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
} ff_crowd_stats;

/* One agent's own path and waiting (cell-to-cell moves, fallbacks). */
typedef struct {
    uint32_t *path;       /* cells to walk, malloc'ed; NULL for none */
    uint32_t len, pos;    /* path[pos] is the next cell */
    uint32_t from;        /* the cell the agent was on at path[pos - 1] */
    long long map_tick;   /* the map it was planned on */
    long long waited;     /* ticks refused in a row */
    long long away;       /* ticks since it last stood arrived on its goal
                             (the grant order with reservations) */
    double start_cost;    /* its field's cost to goal where it entered
                             (the grant order's next key); -1: no way */
    int no_way;           /* 1: its last own-path search found nothing */
} ff_agent_plan;

typedef struct {
    const ff_scenario *scenario;
    const ff_grid *grid;       /* the map of the walls (the current one) */
    const uint8_t *direction;  /* w*h codes of the field followed, when
                                  there are no profiles */
    ff_profiles *profiles;     /* borrowed, or NULL: the fields by class */
    ff_congestion congestion;  /* with 'congestion on' and profiles: the
                                  congestion fields the classes follow
                                  (crowd.c refreshes them) */
    int congested;             /* 1 when congestion is set up */
    ff_goal_groups goal_groups; /* every class's goal cells in groups */
    size_t *group_arrived;     /* per goal group: the agents that arrived
                                  at one of its cells (the nearest) */
    int smooth;                /* follow the smoothed (1) or raw (0) field */
    int pow2_cell;             /* 1: the cell size is a power of two, so
                                  (v - origin) * (1 / cell) is exact */
    ff_walls walls;
    uint8_t *goal;             /* w*h: 1 on goal cells */
    ff_agent *agent;           /* the scenario's agents, ascending id */
    size_t nagents;
    double *turn_cos, *turn_sin; /* per class: the largest turn of a tick */
    double *slide_far_k;       /* per class: near-wall entries above this
                                  need no slide (steer.c) */
    double *cand_reach;        /* per class: the reach of its contact
                                  candidates (contact.c) */
    double bucket_size;        /* of the spatial hash, world units */
    double max_radius;
    ff_shash hash;             /* present agents at their positions after
                                  the last resolution (or the last build) */
    int hash_current;          /* 1 when hash holds the present agents */
    ff_shash_entry *points;    /* scratch for building the hash */
    uint32_t *live;            /* indices of the present agents, ascending */
    size_t nlive;
    int live_dirty;            /* 1 when live must be gathered again */
    uint32_t *spawn_order;     /* agent indices by spawn tick, then index */
    size_t next_spawn;         /* spawn_order[next_spawn..] are unborn */
    uint32_t *contact;         /* pairs of agent indices that may touch */
    size_t ncontacts, cap_contacts;
    uint8_t *involved;         /* per agent: 1 when in a contact pair */
    uint32_t *involved_list;   /* those agents, in the order found */
    uint32_t *entry_of;        /* per involved agent: its entry in the
                                  start-of-tick hash (contact.c) */
    uint32_t *unclear;         /* entries whose moves did not end clear of
                                  the walls (crowd.c) */
    size_t ninvolved;
    int contacts_valid;        /* 1 when this tick's contacts were found */
    uint64_t *contact_key;     /* per contact: its place in the order of
                                  ff_contacts_find (two words, contact.c) */
    uint32_t *cand;            /* pairs of hash entries that may touch
                                  after the moves (contact.c) */
    size_t ncand, cap_cand;
    int cand_failed;           /* 1: no memory for more candidates */
    double max_move;           /* the fastest class's speed times the tick */
    int candidates_ok;         /* 1 when every class's candidate reach is
                                  within a bucket (contact.c) */
    int fresh_contacts;        /* 1: find the contacts afresh every tick,
                                  never from the candidates (the same
                                  pairs in the same order, slower: a check
                                  for tests); 0 after init */
    unsigned long long candidate_ticks; /* ticks whose contacts came from
                                  the candidates */
    size_t end_by_hash_min;    /* such ticks end in the hash's order from
                                  this many agents on (32768 after init;
                                  the same results either way) */
    long long tick;            /* the last tick done; -1 before tick 0 */
    ff_crowd_stats stats;
    ff_agent_plan *plan;       /* per agent */
    /* own goals ('agent ... goal', 'spawn ... scen') */
    ff_goalfields goals;       /* their fields */
    uint32_t *agent_goal;      /* per agent: its goal field, or
                                  FF_GOALFIELD_NONE; NULL when no agent
                                  has an own goal */
    /* cell-to-cell moves ('move grid') */
    ff_reserve_request *req;   /* this tick's requests (aligned to 64) ... */
    /* priority inheritance (pibt.c) */
    struct ff_pibt_cell *pibt_cell; /* w*h: each cell's marks of the tick */
    uint32_t *pibt_order;      /* per request: the grant order */
    uint32_t *pibt_prev;       /* the last grant order, as agents ... */
    size_t pibt_nprev;         /* ... this many */
    uint32_t *pibt_req_of;     /* per agent: its request (scratch) */
    uint8_t *pibt_placed;      /* per request: in the order (scratch) */
    struct ff_pibt_key *pibt_key; /* per request: its order's keys (scratch) */
    uint32_t pibt_stamp;
    int32_t pibt_step[8];      /* the cell offset of a step in each direction */
    uint16_t *pibt_open9;      /* w*h: the map's open cells round each
                                  (pibt.c's make_open9) ... */
    long long pibt_open9_tick; /* ... for the map of this map_tick */
    int pibt_open9_made;
    int pibt_full_turns;       /* 1: every turn is PIBT's whole turn, none
                                  the short one of an agent at rest (the
                                  same moves and counts, slower: a check
                                  for tests); 0 after init */
    unsigned long long pibt_rest_turns; /* turns taken short, at rest */
    uint8_t *pibt_rest;        /* per request: 1 + its direction lookups
                                  when its last turn was short, else 0 ... */
    int pibt_rest_made;        /* ... 1 when the last tick's turns made
                                  them (not the complement's plan), ... */
    long long pibt_rest_map;   /* ... on the map of this map_tick ... */
    unsigned long long pibt_rest_builds; /* ... and goals.builds */
    uint32_t *req_agent;       /* ... and their agents */
    size_t nreq_last;          /* requests of the last tick */
    uint32_t *waits_on;        /* per request: wait-for edge */
    int32_t *cycle;
    uint8_t *cycle_scratch;
    uint32_t *spawn_scratch;
    uint32_t *cell_seen;       /* the overlap measure's table of cells */
    size_t cell_seen_mask;     /* its size - 1 (a power of 2 - 1) */
    struct ff_gridmove_class *grid_class; /* per class: its footprint */
    int grid_in_cell;          /* 1: every class's disk lies within a cell */
    uint32_t *grid_settled;    /* per agent: the cell round which it last
                                  settled its own goal's field (UINT32_MAX:
                                  none) since ... */
    unsigned long long grid_settled_builds; /* ... this many goal fields
                                  were built (goals.builds) ... */
    long long grid_settled_map; /* ... on the map of this map_tick */
    uint8_t *grid_kept;        /* per request: 1 when it was the same
                                  agent's at the last tick (its footprint,
                                  priority, id and class kept), 2 when that
                                  agent has not moved since (its cell kept
                                  too), else 0 */
    int grid_all_kept;         /* 1: every request of the tick was the
                                  same agent's at the last, as many */
    int grid_shared;           /* the tick's agents: 1 when two share a cell ... */
    int grid_off_center;       /* ... 1 when one is off its cell's center */
    /* deadlocks found at the last tick: cycle k holds the ids
       deadlock_id[deadlock_start[k] .. deadlock_start[k + 1]) */
    uint32_t *deadlock_id;
    size_t *deadlock_start;
    size_t ndeadlocks;
    size_t on_goal;            /* agents standing arrived on their goals
                                  (or gone from them) */
    struct ff_lacam *lacam;    /* the complement of PIBT (lacam.c); NULL
                                  until it is needed */
    long long makespan;        /* first tick with every agent on its goal;
                                  -1 before */
    int over;                  /* FF_OVER_*: why nothing can change any
                                  more after the last tick (0: it can) */
    /* at the start: agents whose class's field gives no way to a goal */
    size_t *class_unreachable; /* per class: how many */
    uint32_t *class_first_unreachable; /* per class: the lowest such id */
    size_t unreachable;
    /* per class: the goal cells' bounding box x0 y0 x1 y1 (x1 < x0 when
       there is none), so that the arrival test need not read the goal
       mask far from every goal */
    long long *goal_box;
    double *goal_world;        /* per class: the goal box widened by a
                                  cell, world units (x0, y0, x1, y1) */
} ff_crowd;

/* Set up a crowd for scenario s on grid g following the direction channel
 * dir (smoothed when smooth is 1).  Nothing moves until ff_crowd_step(). */
ff_status ff_crowd_init(ff_crowd *c, const ff_scenario *s, const ff_grid *g,
                        const uint8_t *dir, int smooth, ff_error *err);
void ff_crowd_free(ff_crowd *c);

/* The same for a crowd whose classes follow the fields of profiles p
 * (built for s) on p's current map, with map events, stale fields,
 * fallbacks, and with 'move grid' cell-to-cell moves and reservations.
 * Counts, per class, the agents whose start cell has no way to a goal. */
ff_status ff_crowd_init_profiles(ff_crowd *c, const ff_scenario *s, ff_profiles *p, int smooth,
                                 ff_error *err);

/* Run the next tick.  Tick 0 only places the agents whose spawn tick is 0
 * and resolves their overlaps; each later tick steers, integrates and
 * moves every agent present (or moves them cell to cell), adds that
 * tick's spawns, resolves overlaps, then measures and checks arrivals.
 * Deadlocks found in the tick are left in deadlock_id / deadlock_start.
 * FF_ENOMEM on allocation failure. */
ff_status ff_crowd_step(ff_crowd *c, ff_error *err);

/* Why a run is over (ff_crowd_check_over). */
enum {
    FF_OVER_NOT = 0,
    FF_OVER_ARRIVED,  /* every agent arrived (and left or stays) */
    FF_OVER_STOPPED,  /* the others stand where no way leads to a goal */
    FF_OVER_UNSOLVABLE /* the complement's search proved that the agents
                          away can never all reach their goals */
};

/* After a step: FF_OVER_* when nothing can change any more (no spawn and
 * no map event to come, every agent arrived, and with cell-to-cell moves
 * the others stopped for good, see man 1 ffsim); sets and keeps c->over. */
int ff_crowd_check_over(ff_crowd *c);

/* Tell the crowd that the caller moved agents (their x, y) since the last
 * step: the next step then finds their neighbours, cells and contacts
 * where they are now.  The agents are the crowd's; the steps keep their
 * own bookkeeping of where each stands, and a move from outside without
 * this call leaves the next step working from where they stood. */
void ff_crowd_moved(ff_crowd *c);

/* Blend the behaviours' proposals px[k], py[k] of class cls (indexed as
 * cls->behaviour) by priority group: each group's weighted sum is tried in
 * ascending priority and the first whose length exceeds the threshold
 * wins; when none does, the last group's sum is used.  Writes the result
 * to *ox, *oy and returns the winning group's index, or -1 for the
 * fallback to the last group.  The simulation uses the same code. */
int ff_crowd_blend(const ff_agent_class *cls, const double *px, const double *py,
                   double *ox, double *oy);

/* The trace's last line when the run ended early (c->over): a comment
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
