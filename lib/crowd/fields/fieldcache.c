/* fieldcache.c - the field of the map's state before an event, kept to be
 * taken back; see profilesint.h. */
#include <stdlib.h>
#include <string.h>

#include "profilesint.h"

void ff_field_cache_free(ff_field_cache *c)
{
    free(c->cost);
    free(c->goals);
    free(c->distance);
    free(c->direction);
    free(c->step_mask);
    free(c->lead_layer);
    memset(c, 0, sizeof *c);
}

/* Keep the profile's latest field, for the map's state key, in its cache
 * (copies). */
ff_status ff_field_cache_store(ff_profile *f, uint64_t key, size_t n, ff_error *err)
{
    ff_field_cache *c = &f->cache;
    const double *dist = ff_profile_pending(f) ? f->next_distance : f->distance;
    const uint8_t *dir = ff_profile_pending(f) ? f->next_direction : f->direction;
    uint32_t *goals;

    if (!c->cost) {
        c->cost = malloc(n * sizeof *c->cost);
        c->distance = malloc(n * sizeof *c->distance);
        c->direction = malloc(n);
        c->step_mask = malloc(n);
        c->lead_layer = malloc(n);
        if (!c->cost || !c->distance || !c->direction || !c->step_mask || !c->lead_layer) {
            ff_field_cache_free(c);
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the field cache");
        }
    }
    goals = realloc(c->goals, (f->grid.ngoals ? f->grid.ngoals : 1) * sizeof *goals);
    if (!goals)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the field cache");
    c->goals = goals;
    if (f->grid.ngoals)  /* (a map without goals has none: goals NULL) */
        memcpy(c->goals, f->grid.goals, f->grid.ngoals * sizeof *goals);
    c->ngoals = f->grid.ngoals;
    memcpy(c->cost, f->grid.cost, n * sizeof *c->cost);
    memcpy(c->distance, dist, n * sizeof *dist);
    memcpy(c->direction, dir, n);
    memcpy(c->step_mask, f->step_mask, n);
    memcpy(c->lead_layer, f->lead_layer, n);
    c->id = ff_profile_pending(f) ? f->next_id : f->id;
    c->flat = f->flat;
    c->map_key = key;
    c->valid = 1;
    return FF_OK;
}

#define SWAP(T, a, b) do { T swap_ = (a); (a) = (b); (b) = swap_; } while (0)

/* Take the cached field into the profile (its grid at once, its field
 * into next_*), leaving in the cache the latest field, for the state key
 * left: swaps, and a copy of the published field when none is pending. */
void ff_field_cache_take(ff_profile *f, uint64_t key_left, size_t n)
{
    ff_field_cache *c = &f->cache;
    uint64_t id = c->id;
    int flat = c->flat, was_pending = ff_profile_pending(f);

    SWAP(float *, f->grid.cost, c->cost);
    SWAP(uint32_t *, f->grid.goals, c->goals);
    SWAP(size_t, f->grid.ngoals, c->ngoals);
    SWAP(uint8_t *, f->step_mask, c->step_mask);
    SWAP(uint8_t *, f->lead_layer, c->lead_layer);
    SWAP(double *, f->next_distance, c->distance);
    SWAP(uint8_t *, f->next_direction, c->direction);
    c->id = was_pending ? f->next_id : f->id;
    c->flat = f->flat;
    if (!was_pending) {
        memcpy(c->distance, f->distance, n * sizeof *f->distance);
        memcpy(c->direction, f->direction, n);
    }
    c->map_key = key_left;
    f->next_id = id;
    f->flat = flat;
    f->astar.step_mask = f->step_mask;
}
