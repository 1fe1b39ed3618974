/* profilesint.h - the inside of the profiles module, for its own files
 * (not installed): profiles.c (grouping the classes, set-up, the tick)
 * calls the parts below, each a file of its own concern:
 *
 *  - mapevents.c: a tick's map events applied to the map, the changed
 *    cells listed and the map's state key kept;
 *  - rebuild.c: a profile made again after a map event, whole or repaired;
 *  - fieldcache.c: the field of the map's state before, kept and taken back;
 *  - fieldbuild.c: a profile's grid and field built whole, its id;
 *  - publish.c: the published field and the one awaiting publication;
 *  - leadout.c: the cells closed by the clearance led back into it.
 *
 * Each calls only those after it in this list.
 */
#ifndef FF_PROFILESINT_H
#define FF_PROFILESINT_H

#include "profiles.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- leadout.c ---- */

/* Layers of cells led out of the clearance (see leadout.c). */
#define FF_LEAD_OUT_LAYERS 2

/* 1 when cell i, open on the map, is closed for the profile. */
int ff_led_out_cell(const ff_profiles *p, const ff_profile *f, size_t i);

/* The layers of lead-out, in order, for cells[0..n) (or the first n
 * cells, cells NULL) that are not led out yet. */
void ff_lead_layers(ff_profiles *p, ff_profile *f, const uint32_t *cells, size_t n, uint8_t *dir,
                    double *dist);

/* Make the lead-out of cells[0..ncells) (or of every cell, cells NULL)
 * again in dir/dist; *changed is set to 1 when a listed cell's direction,
 * distance or layer changed.  FF_ENOMEM. */
ff_status ff_lead_out(ff_profiles *p, ff_profile *f, const uint32_t *cells, size_t ncells,
                      uint8_t *dir, double *dist, int *changed, ff_error *err);

/* ---- publish.c ---- */

/* 1 when next_* is a field awaiting publication (then it is the latest;
 * else the published one is). */
int ff_profile_pending(const ff_profile *f);

/* Make next_* the latest field (n cells). */
void ff_profile_latest_to_next(ff_profile *f, size_t n);

/* Publish next_* at tick t: it becomes the field in use. */
void ff_profile_publish(ff_profile *f, long long t);

/* ---- fieldbuild.c ---- */

/* The profile's grid from the current map: its clearance, then only the
 * goals left open (*open_goals of them).  FF_ENOMEM. */
ff_status ff_profile_grid(ff_profiles *p, ff_profile *f, size_t *open_goals, ff_error *err);

/* The profile's goals: a goal change's (goal_set), its class's or the
 * map's; *n of them. */
const uint32_t *ff_profile_goal_list(const ff_profiles *p, const ff_profile *f, size_t *n);

/* The profile grid's goals made again: its own, only those left open
 * (*open_goals of them).  FF_ENOMEM. */
ff_status ff_profile_grid_goals(ff_profiles *p, ff_profile *f, size_t *open_goals, ff_error *err);

/* The id of the field in next_*: the map id, the radius, the plane hash
 * of the directions (n = w*h of them; none for a field not built: see
 * ff_profile.built).  From the profile's trees: only the tiles a repair
 * told them of (ff_profile_tell_trees) hashed again, else every one. */
uint64_t ff_profile_field_id(ff_profile *f, size_t n);

/* A repair of the field whose id was from (the latest before it) changed
 * the costs of f->grid at cost_cells and the directions in next_* at
 * most at dir_cells: the next ff_profile_field_id hashes those tiles
 * only, when the trees are of that field (else it hashes every tile). */
void ff_profile_tell_trees(ff_profile *f, uint64_t from, const uint32_t *cost_cells,
                           size_t ncost, const uint32_t *dir_cells, size_t ndir);

/* What every new field of a profile ends with: its count, size and id,
 * and the own-path search told of the new grid. */
void ff_profile_finish(ff_profiles *p, ff_profile *f);

/* Search, directions and lead-out of the profile's grid (made by
 * ff_profile_grid, goals of them open), whole, into next_*. */
ff_status ff_profile_build_field(ff_profiles *p, ff_profile *f, size_t goals, ff_error *err);

/* Clearance, search, directions and lead-out of the profile, whole, into
 * next_*. */
ff_status ff_profile_build(ff_profiles *p, ff_profile *f, ff_error *err);

/* The arrays of profile f's field on n cells (see ff_profile.built).
 * FF_ENOMEM. */
ff_status ff_profile_field_arrays(ff_profile *f, size_t n, ff_error *err);

/* Build the field of profile f that nobody followed (see
 * ff_profile.built), published at once. */
ff_status ff_profile_build_late(ff_profiles *p, ff_profile *f, ff_error *err);

/* ---- fieldcache.c ---- */

void ff_field_cache_free(ff_field_cache *c);

/* Keep the profile's latest field (n cells), for the map's state key, in
 * its cache.  FF_ENOMEM. */
ff_status ff_field_cache_store(ff_profile *f, uint64_t key, size_t n, ff_error *err);

/* Take the cached field into the profile (its grid at once, its field
 * into next_*), leaving in the cache the latest field, for the state key
 * left. */
void ff_field_cache_take(ff_profile *f, uint64_t key_left, size_t n);

/* ---- rebuild.c ---- */

/* The profile after the map changed (p->changed), built whole; *affected
 * says whether the field changed. */
ff_status ff_profile_rebuild_full(ff_profiles *p, ff_profile *f, int *affected, ff_error *err);

/* The same, repaired, or taken from the cache; key_left is the map's
 * state key before the change. */
ff_status ff_profile_rebuild_repair(ff_profiles *p, ff_profile *f, uint64_t key_left,
                                   int *affected, ff_error *err);

/* ---- mapevents.c ---- */

/* Apply the events of tick t to the map, listing the cells that changed
 * in p->changed; *map_changed is set to 1 when any event was due.
 * FF_ENOMEM. */
ff_status ff_map_events_apply(ff_profiles *p, long long t, int *map_changed, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
