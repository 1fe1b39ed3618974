/* profiles.h - the fields a crowd follows: one per agent radius (a
 * profile), each built by ffsim itself from the map held in the stream
 * with the same library code ffbuild and ffdir use (clearance, search,
 * directions), and made again when a map event closes or opens cells
 * (man 1 ffsim, "PROFILES" and "MAP EVENTS").
 *
 * The stream's grid is the base map as it is: a stream built with
 * ffbuild -r R is already closed for R, and a profile's clearance is
 * applied on top of it.  Without 'profiles on' there is one profile of
 * radius 0 shared by every class: the stream's map with no more
 * clearance.
 *
 * A map event changes only the fields it can change (a change beyond a
 * profile's reach, or inside cells closed for it, leaves it as it is):
 * with 'rebuild repair' (the default) they are repaired (repair.h) or
 * taken from the profile's cache of the map's state before, with
 * 'rebuild full' built whole; the fields are the same either way.  A
 * rebuild is computed at once but published as if one builder made the
 * changed fields one after another, smallest radius first, each taking
 * 'rebuild-ticks' ticks: the k-th (from 0) of a change at tick t is
 * published at t + (k + 1) * rebuild-ticks.  In between the profile is stale and ff_profiles_direction()
 * returns NULL, so nobody can follow the old field.  Profiles own every
 * array they point to; ff_profiles_free() releases them.
 */
#ifndef FF_PROFILES_H
#define FF_PROFILES_H

#include <stdint.h>

#include "astar.h"
#include "grid.h"
#include "gridid.h"
#include "repair.h"
#include "scenario.h"
#include "tilehash.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A profile's field as it was for one state of the map, kept to be taken
 * back when the map returns to that state (a door closing and opening
 * again). */
typedef struct {
    int valid;
    uint64_t map_key;         /* ff_profiles.map_key of that state */
    float *cost;              /* w*h: the profile's grid cost */
    uint32_t *goals;          /* its goals (closed ones dropped) */
    size_t ngoals;
    double *distance;         /* w*h */
    uint8_t *direction, *step_mask, *lead_layer; /* w*h each */
    uint64_t id;
    int flat;
} ff_field_cache;

typedef struct {
    double radius;            /* clearance radius, world units, >= 0 */
    int32_t goal_class;       /* the class whose own goals it uses, or -1
                                 for the stream's goals */
    uint8_t *goal_mask;       /* w*h: 1 on its goal cells (closed or not) */
    const uint32_t *goal_set; /* after a goal change, its goals (borrowed
                                 from the scenario's event), else NULL */
    size_t ngoal_set;
    uint32_t goal_version;    /* 0, or the goal change's (scenario.h) */
    ff_grid grid;             /* the current map with this clearance;
                                 closed goals dropped */
    /* 1 once its field is built: at the start, unless nobody follows
     * it (every agent of its classes has a goal of its own, and neither
     * congestion nor turn costs: ff_profiles_init); such a field is built
     * only before the first map event (a rebuild starts from it), at
     * ff_profiles.late_tick.  Until then distance, direction, their next_
     * and lead_layer are NULL, and its id (unbuilt_id) is a hash of its
     * grid and radius alone; built, it has the id it would have had from
     * the start (late_id), for which what was made for unbuilt_id holds
     * (ff_goalfields_rename). */
    int built;
    uint64_t unbuilt_id, late_id; /* (0, 0 when built at the start) */
    double *distance;         /* w*h: the published field */
    uint8_t *direction;       /* w*h: its direction codes */
    double *next_distance;    /* w*h: a rebuild awaiting publication */
    uint8_t *next_direction;
    long long publish_tick;   /* when next_* is published; -1 = none */
    long long published_tick; /* when the field in use was published */
    uint64_t id;              /* of the published field (hash of the map
                                 id, the radius and the directions) */
    uint64_t next_id;
    int stale;                /* 1 while a rebuild awaits publication */
    uint8_t *heading_direction; /* with turn costs, 8*w*h: heading h's
                                 w*h codes at h*w*h (turn.h); else NULL */
    uint8_t *next_heading_direction;
    uint8_t *step_mask;       /* w*h: the legal steps of grid (bit d) */
    uint8_t *lead_layer;      /* w*h: 1 or 2 on a cell led out of the
                                 clearance (layer), else 0 */
    int flat;                 /* the field has a zero-cost tie
                                 (ff_repair_directions) */
    ff_repair repair;         /* scratch of its repairs */
    ff_field_cache cache;     /* the field of the map's state before */
    ff_astar astar;           /* own paths on grid */
    /* The tile hashes (tilehash.h) of grid's planes and of the
     * directions of the field whose id is trees_id, kept so that a
     * repair's id hashes again only the tiles it changed
     * (ff_profile_tell_trees); trees_told is 1 when a repair told them. */
    ff_grid_trees grid_trees;
    ff_tilehash direction_tree;
    uint64_t trees_id;
    int trees_told;
} ff_profile;

typedef struct {
    const ff_scenario *scenario; /* borrowed */
    ff_grid base;             /* the stream's map; owned, copied from
                                 map at the first map event (map is it
                                 until then) */
    ff_grid map;              /* base with the events so far: the walls */
    ff_profile *profile;      /* ascending radius, then first class */
    size_t nprofiles;
    int32_t *class_profile;   /* per class of the scenario */
    size_t next_event;        /* scenario events before it are applied */
    long long map_tick;       /* tick of the last map change or goal
                                 change (what was planned on the fields
                                 before is stale); -1 none */
    unsigned long long builds;      /* fields built (the first ones too) */
    unsigned long long build_bytes; /* bytes of the fields built */
    double build_seconds;     /* processor time spent building */
    double rebuild_seconds_max; /* the most work one map event caused
                                 (all fields), processor seconds */
    unsigned long long cache_hits; /* fields taken from a cache */
    uint64_t map_key;         /* the map's state: a hash of the cells the
                                 events changed from the stream's map */
    uint32_t *changed;        /* cells the events of a tick changed */
    size_t nchanged, changed_cap;
    uint8_t *mark;            /* w*h scratch, 0 between uses */
    long long late_tick;      /* the tick at which the profiles nobody
                                 followed were built (see ff_profile.built),
                                 or -1 */
    int turn;                 /* 1: fields over (cell, heading) states,
                                 always rebuilt whole */
    double turn_cost;         /* with turn: per 45-degree turn */
    double *turn_distance;    /* with turn, 8*w*h: a build's state distances */
    uint8_t *turn_direction;  /* with turn, 8*w*h: a build's state codes */
} ff_profiles;

/* The profiles ff_profiles_init makes for scenario s on the stream's grid,
 * without building them: classes whose radii close the same cells
 * (ff_clearance_key) and with the same goals share one, its radius the
 * smallest of theirs.  Sets *nprofiles and, class_profile having
 * s->nclasses entries, each class's profile.  FF_ENOMEM. */
ff_status ff_profiles_plan(const ff_scenario *s, const ff_grid *stream, int32_t *class_profile,
                           size_t *nprofiles, ff_error *err);

/* Build the first field of every profile of scenario s from the stream's
 * grid (goals from it), but for profiles nobody follows (see
 * ff_profile.built): their grids and steps only.  A class whose goals
 * are all closed by its clearance has no field: FF_EINPUT at the class's
 * line of scen_name. */
ff_status ff_profiles_init(ff_profiles *p, const ff_scenario *s, const ff_grid *stream,
                           const char *scen_name, ff_error *err);

/* The same for a turn-cost stream (turn 1): every profile's field is one
 * over (cell, heading) states with turn_cost per 45-degree turn, as
 * ffbuild --turn-cost builds it, rebuilt whole after map events, and each
 * heading's directions are kept (ff_profiles_heading_direction). */
ff_status ff_profiles_init_turn(ff_profiles *p, const ff_scenario *s, const ff_grid *stream,
                                int turn, double turn_cost, const char *scen_name,
                                ff_error *err);
void ff_profiles_free(ff_profiles *p);

/* Apply the events of tick t (map changes at once, rebuilds begin) and
 * publish the rebuilds due at t.  *map_changed is set to 1 when the map
 * changed.  Call once per tick, in ascending tick order. */
ff_status ff_profiles_tick(ff_profiles *p, long long t, int *map_changed, ff_error *err);

/* Profile k's goals become goals[0..n) (borrowed: they must outlive p),
 * of goal version version, from tick t: its goal mask and its grid's goals
 * at once (map_tick becomes t), and the map-event cache dropped (it held
 * the goals before); with build, its field is built whole for them into
 * next_* (counted in builds), else the caller puts one there
 * (ff_profiles_take_field).  A profile nobody follows yet
 * (ff_profile.built 0) gets its goals only.  FF_ENOMEM. */
ff_status ff_profiles_set_goals(ff_profiles *p, size_t k, const uint32_t *goals, size_t n,
                                uint32_t version, int build, long long t, ff_error *err);

/* What was planned on the fields before tick t is stale (an agent's
 * goal changed): map_tick becomes t. */
static inline void ff_profiles_fields_changed(ff_profiles *p, long long t)
{
    p->map_tick = t;
}

/* Put a field kept by the caller (a cached one, goalchange.h) into
 * profile k's next_*, its goals set already (ff_profiles_set_goals):
 * distance and direction (w*h each), lead_layer (w*h: its lead-out, see
 * ff_profile), heading (with turn costs 8*w*h, else unused), its id and
 * flat (ff_profile.flat).  Nothing is searched. */
void ff_profiles_take_field(ff_profiles *p, size_t k, const double *distance,
                            const uint8_t *direction, const uint8_t *lead_layer,
                            const uint8_t *heading, uint64_t id, int flat);

/* Publish profile k's field in next_* (id next_id) at publish_tick: at
 * once when that is not after t, the tick now; else then, the profile
 * stale until then when stale is 1 (it was already while a rebuild
 * awaits publication). */
void ff_profiles_schedule(ff_profiles *p, size_t k, long long t, long long publish_tick,
                          int stale);

/* The published directions for class cls, or NULL while its field is
 * stale. */
static inline const uint8_t *ff_profiles_direction(const ff_profiles *p, int32_t cls)
{
    const ff_profile *f = &p->profile[p->class_profile[cls]];
    return f->stale ? NULL : f->direction;
}

/* With turn costs, the published directions of heading h (0..7) for
 * class cls: what an agent whose heading is nearest h follows; NULL while
 * stale or without turn costs. */
static inline const uint8_t *ff_profiles_heading_direction(const ff_profiles *p, int32_t cls,
                                                           int h)
{
    const ff_profile *f = &p->profile[p->class_profile[cls]];
    if (f->stale || !f->heading_direction)
        return NULL;
    return f->heading_direction + (size_t)h * (size_t)f->grid.w * (size_t)f->grid.h;
}

static inline ff_profile *ff_profiles_of(ff_profiles *p, int32_t cls)
{
    return &p->profile[p->class_profile[cls]];
}

#ifdef __cplusplus
}
#endif

#endif
