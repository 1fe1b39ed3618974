/* scenario.h - the crowd scenario that ffsim replays: tick length and
 * count, agent classes with their behaviours, and the agents, given one by
 * one or placed by seeded spawn rules (man 5 ffsim).
 *
 * A scenario is read against the map it will run on, so that an agent on
 * a wall, outside the map or nearer than its radius to a wall is refused
 * at its line and column.  A scenario owns every array it points to;
 * ff_scenario_free() releases them.
 */
#ifndef FF_SCENARIO_H
#define FF_SCENARIO_H

#include <stdint.h>
#include <stdio.h>

#include "goalevent.h"
#include "grid.h"
#include "placement.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FF_BEHAVIOURS_MAX 16       /* behaviours in one class */
#define FF_CLASS_NAME_MAX 32       /* bytes, with the NUL */
#define FF_SCENARIO_AGENTS_MAX 10000000
#define FF_SCENARIO_CLASSES_MAX 256  /* agent classes (names are looked up
                                        by a linear search) */
#define FF_SCENARIO_TICKS_MAX 100000000LL
#define FF_STUCK_AFTER_DEFAULT 60  /* seconds without progress: a standoff */
#define FF_THRESHOLD_DEFAULT 0.2   /* a class's threshold unless it says: the
                                      seed's, a fifth of full steering */
#define FF_SPAWN_TRIES 100         /* draws per placed agent (man 5 ffsim) */
#define FF_SPAWN_CROWDING 4        /* a spawn rule's agents: at most this many
                                      times the densest packing of their
                                      disks in its area (man 5 ffsim) */

typedef enum {
    FF_BEHAVE_FOLLOW = 0,   /* the field's direction at the position */
    FF_BEHAVE_SEPARATE,     /* away from neighbours within range */
    FF_BEHAVE_AVOID_WALLS,  /* away from walls within a look-ahead */
    FF_BEHAVE_SEEK,         /* toward a point */
    /* the angular behaviours: they steer the heading, not the velocity */
    FF_BEHAVE_FACE,         /* turn toward a point */
    FF_BEHAVE_LOOK_AHEAD,   /* turn toward the velocity */
    FF_BEHAVE_ALIGN         /* turn toward the neighbours' mean heading */
} ff_behaviour_kind;

typedef struct {
    ff_behaviour_kind kind;
    long priority;            /* groups are tried in ascending priority */
    double weight;            /* finite; the sum of a group is weighted */
    double range;             /* world units: separate's and align's
                                 neighbour range, avoid-walls' look-ahead;
                                 > 0 */
    double target_x, target_y;/* seek's and face's point, world units */
} ff_behaviour;

typedef struct {
    char name[FF_CLASS_NAME_MAX];
    double radius;            /* world units, > 0 */
    double max_speed;         /* world units per second, > 0 */
    double max_accel;         /* world units per second^2, > 0 */
    double max_turn;          /* degrees per second, > 0: the most turn
                                 rate */
    double max_angular_accel; /* degrees per second^2, > 0: the most the
                                 turn rate changes in a second (steered
                                 headings only) */
    double threshold;         /* a group wins when its linear length or its
                                 angular magnitude exceeds this; steering
                                 units (1: full speed, full turn rate),
                                 >= 0 */
    ff_behaviour behaviour[FF_BEHAVIOURS_MAX]; /* ascending priority; line
                                 order within one priority */
    int nbehaviours;          /* >= 1 */
    int group_start[FF_BEHAVIOURS_MAX + 1]; /* group g is behaviours
                                 [group_start[g], group_start[g+1]) */
    int ngroups;
    int follows;              /* 1 when a behaviour is follow */
    int turns;                /* 1 when a behaviour is angular: face,
                                 look-ahead or align steer the heading */
    long agent_priority;      /* reservations: lower is served first
                                 (class line 'priority', default 0) */
    uint32_t goal[FF_CLASS_GOALS_MAX]; /* the class's own goal cells
                                 (ascending, no repeats); none: the
                                 stream's */
    int ngoals;
    int goal_events;          /* its 'at T goal' lines: a class with any
                                 has a field of its own (profiles.h) */
    long line;                /* where the class began */
} ff_agent_class;

typedef struct {
    uint32_t id;              /* unique; agents are simulated in id order */
    int32_t cls;              /* index into the scenario's classes */
    double x, y;              /* world units: open, clear of walls */
    double heading;           /* degrees, 0 east, 90 south; NaN = from the
                                 field at the start */
    long long spawn_tick;     /* >= 0 */
    int64_t goal;             /* its own goal cell (y * w + x, open), or
                                 -1: its class's goals */
    long line;                /* the agent or spawn line that made it */
} ff_agent_spec;

/* A map event: at its tick, the cells [x0, x1] x [y0, y1] (inclusive,
 * inside the map) are closed (cost +inf) or opened again (the stream's
 * cost). */
typedef struct {
    long long tick;           /* >= 1 */
    int close;                /* 1 close, 0 open */
    int32_t x0, y0, x1, y1;   /* cells */
    long line;
} ff_map_event;

typedef enum {
    FF_FALLBACK_WAIT = 0,     /* wait while the field is stale */
    FF_FALLBACK_ASTAR         /* follow an own A* path on the current map */
} ff_fallback;

typedef enum {
    FF_MOVE_STEER = 0,        /* continuous steering (issue 6) */
    FF_MOVE_GRID              /* cell to cell, one step a tick */
} ff_move_model;

typedef struct {
    double tick_dt;           /* seconds per tick, > 0 */
    long long ticks;          /* ticks to run, >= 0 */
    double arrive;            /* arrival distance to a goal cell's center,
                                 world units, >= 0 */
    int stay;                 /* 1: arrived agents stay as obstacles */
    int passes;               /* overlap resolution passes per tick */
    ff_agent_class *cls;
    size_t nclasses;
    ff_agent_spec *agent;     /* ascending id */
    size_t nagents;
    int profiles;             /* 1: each class radius gets its own field */
    long long rebuild_ticks;  /* ticks a rebuild takes (fields stale) */
    int rebuild_full;         /* 1: map events rebuild fields whole, no
                                 cache ('rebuild full'); 0: repaired */
    ff_fallback fallback;     /* while a class's field is stale */
    ff_move_model move;
    int reserve;              /* 1: cell and edge reservations (grid) */
    long long wait_limit;     /* waits before an agent asks for its own
                                 path (reservations), >= 1 */
    double stuck_after;       /* steering: seconds an agent's cost to goal
                                 may stay above its lowest before it is in
                                 a standoff (man 1 ffsim), > 0 */
    int congestion;           /* 1: classes follow congestion fields
                                 (man 1 ffsim, "CONGESTION") */
    double congestion_weight; /* the density term's weight w, square world
                                 units per agent, > 0 (default 2.5) */
    double congestion_threshold; /* the density that costs nothing, agents
                                 per square world unit, >= 0 (default one
                                 agent per cell: 1 / cell_size^2) */
    long long congestion_ticks; /* ticks between congestion refreshes,
                                 >= 1 (default 10) */
    ff_map_event *event;      /* ascending tick, line order within one */
    size_t nevents;
    ff_goal_event *goal_event; /* ascending tick, line order within one */
    size_t ngoal_events;
    int goal_change_stop;     /* 1: a class's agents stand while a new
                                 goal's field is made ('goal-change
                                 stop'); 0 they follow the old one */
} ff_scenario;

void ff_scenario_init(ff_scenario *s);
void ff_scenario_free(ff_scenario *s);

/* Read a whole scenario from f (name is used in messages) for the map g,
 * expanding spawn rules into agents.  Errors are FF_EINPUT at the line and
 * column of the offending word; on failure s is left empty. */
ff_status ff_scenario_read(FILE *f, const char *name, const ff_grid *g, ff_scenario *s,
                           ff_error *err);

/* The same for a scenario in a string (tests). */
ff_status ff_scenario_parse(const char *text, const char *name, const ff_grid *g,
                            ff_scenario *s, ff_error *err);

/* Sort a class's behaviours by priority (stable: line order within a
 * priority) and set its groups.  The reader calls it at each class's end. */
void ff_class_group(ff_agent_class *c);

/* ff_splitmix64, the spawn rules' source of randomness: placement.h. */

#ifdef __cplusplus
}
#endif

#endif
