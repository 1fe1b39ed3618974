/* goalchange.h - a class's goals changed at run time ('at T goal CLASS
 * ...', man 1 ffsim, "GOAL CHANGES"): its profile gets the new goals at
 * once and a field for them, taken from a cache of the fields it had
 * when the map, the profile and the goals were the same, or built and
 * published rebuild-ticks later (meanwhile the agents follow the old
 * field, or with 'goal-change stop' the profile is stale).
 *
 * The cache holds, per profile, the last FF_GOAL_CACHE_FIELDS fields it
 * left by a goal change, each under its key (the map's state,
 * ff_profiles.map_key, and the goal version; the profile and its cost
 * are the profile's own and never change): a change to a key it holds
 * copies that field back and publishes it at once, nothing searched.
 * The store owns its copies; ff_goalchanges_free() releases them.
 */
#ifndef FF_GOALCHANGE_H
#define FF_GOALCHANGE_H

#include <stdint.h>

#include "profiles.h"
#include "scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FF_GOAL_CACHE_FIELDS 4    /* cached fields per profile */

/* One field kept: a profile's latest field as it was. */
typedef struct {
    int32_t profile;          /* its profile, or -1: an empty slot */
    uint64_t map_key;         /* the map's state then */
    uint32_t goal_version;    /* the profile's goals then */
    unsigned long long used;  /* when last stored or taken (the store's
                                 count): the oldest goes first */
    double *distance;         /* w*h */
    uint8_t *direction;       /* w*h */
    uint8_t *lead_layer;      /* w*h (profiles.h) */
    uint8_t *heading_direction; /* with turn costs 8*w*h, else NULL */
    uint64_t id;
    int flat;
} ff_goal_cached;

typedef struct {
    ff_goal_cached *slot;     /* FF_GOAL_CACHE_FIELDS per profile, made
                                 at the first change */
    size_t nslots;
    long long *publish;       /* per profile: the tick its goal change's
                                 field is due, or -1 (made with slot) */
    unsigned long long uses;
    unsigned long long changes;   /* goal changes of classes applied */
    unsigned long long cache_hits; /* those taken from the cache */
} ff_goalchanges;

void ff_goalchanges_init(ff_goalchanges *g);
void ff_goalchanges_free(ff_goalchanges *g);

/* Apply class goal change e (of a scenario whose events' cells outlive
 * p) at tick t to its class's profile in p, as above; rebuild_ticks and
 * stop from the scenario.  FF_ENOMEM. */
ff_status ff_goalchanges_class(ff_goalchanges *g, ff_profiles *p, const ff_goal_event *e,
                               long long t, ff_error *err);

/* 1 when a field built for a goal change is published at tick t (what
 * was planned on the old field is stale from then too). */
int ff_goalchanges_due(const ff_goalchanges *g, const ff_profiles *p, long long t);

#ifdef __cplusplus
}
#endif

#endif
