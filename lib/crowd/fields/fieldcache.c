/* fieldcache.c - the field of the map's state before an event, kept to be
 * taken back; see profilesint.h and ff_field_cache.
 *
 * The cache holds the state left's values on the cells where the
 * profile's latest field has changed since (each cell kept before its
 * first change), so that taking it back is swapping those values in:
 * work and memory grow with the change, not the map. */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "profilesint.h"

static void free_values(ff_field_cache *c)
{
    free(c->cell);
    free(c->cost);
    free(c->distance);
    free(c->direction);
    free(c->step_mask);
    free(c->lead_layer);
    c->cell = NULL;
    c->cost = NULL;
    c->distance = NULL;
    c->direction = c->step_mask = c->lead_layer = NULL;
    c->ncells = c->cap = 0;
}

void ff_field_cache_free(ff_field_cache *c)
{
    free_values(c);
    free(c->goals);
    free(c->kept);
    memset(c, 0, sizeof *c);
}

void ff_field_cache_drop(ff_field_cache *c)
{
    size_t k;

    if (c->whole) {
        free_values(c);
        c->whole = 0;
    }
    for (k = 0; k < c->ncells; k++)
        c->kept[c->cell[k]] = 0;
    c->ncells = 0;
    c->valid = 0;
}

ff_status ff_field_cache_begin(ff_profile *f, uint64_t key, ff_error *err)
{
    ff_field_cache *c = &f->cache;
    uint32_t *goals;

    ff_field_cache_drop(c);
    goals = realloc(c->goals, (f->grid.ngoals ? f->grid.ngoals : 1) * sizeof *goals);
    if (!goals)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the field cache");
    c->goals = goals;
    if (f->grid.ngoals)  /* (a map without goals has none: goals NULL) */
        memcpy(c->goals, f->grid.goals, f->grid.ngoals * sizeof *goals);
    c->ngoals = f->grid.ngoals;
    c->id = ff_profile_pending(f) ? f->next_id : f->id;
    c->flat = f->flat;
    c->map_key = key;
    c->valid = 1;
    return FF_OK;
}

/* Room for need cells in each array of c.  -1 when out of memory (what
 * was kept stays). */
static int make_room(ff_field_cache *c, size_t need)
{
    size_t cap;
    void *q;

    if (need <= c->cap)
        return 0;
    cap = need < 2 * c->cap ? 2 * c->cap : need;
    if (cap < 256)
        cap = 256;
#define GROW(a) if (!(q = realloc(a, cap * sizeof *(a)))) return -1; a = q
    GROW(c->cell);
    GROW(c->cost);
    GROW(c->distance);
    GROW(c->direction);
    GROW(c->step_mask);
    GROW(c->lead_layer);
#undef GROW
    c->cap = cap;
    return 0;
}

/* Put cell i's values into slot k: the grid's, the steps' and the
 * lead-out's as the profile holds them, distance and direction from
 * dist and dir. */
static void put(ff_field_cache *c, size_t k, const ff_profile *f, size_t i, const double *dist,
                const uint8_t *dir)
{
    c->cost[k] = f->grid.cost[i];
    c->distance[k] = dist[i];
    c->direction[k] = dir[i];
    c->step_mask[k] = f->step_mask[i];
    c->lead_layer[k] = f->lead_layer[i];
}

/* Keep every cell: the arrays by cell index, the cells kept before
 * moved to their places. */
static ff_status keep_every(ff_profile *f, const double *dist, const uint8_t *dir, size_t n,
                            ff_error *err)
{
    ff_field_cache *list = &f->cache, whole = *list;
    size_t i, k;

    whole.cell = NULL;
    whole.cost = malloc(n * sizeof *whole.cost);
    whole.distance = malloc(n * sizeof *whole.distance);
    whole.direction = malloc(n);
    whole.step_mask = malloc(n);
    whole.lead_layer = malloc(n);
    if (!whole.cost || !whole.distance || !whole.direction || !whole.step_mask ||
        !whole.lead_layer) {
        free_values(&whole);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the field cache");
    }
    /* Every cell as it is, then those kept before as they were. */
    memcpy(whole.cost, f->grid.cost, n * sizeof *whole.cost);
    memcpy(whole.distance, dist, n * sizeof *whole.distance);
    memcpy(whole.direction, dir, n);
    memcpy(whole.step_mask, f->step_mask, n);
    memcpy(whole.lead_layer, f->lead_layer, n);
    for (k = 0; k < list->ncells; k++) {
        i = list->cell[k];
        list->kept[i] = 0;
        whole.cost[i] = list->cost[k];
        whole.distance[i] = list->distance[k];
        whole.direction[i] = list->direction[k];
        whole.step_mask[i] = list->step_mask[k];
        whole.lead_layer[i] = list->lead_layer[k];
    }
    free_values(list);
    whole.ncells = whole.cap = n;
    whole.whole = 1;
    *list = whole;
    return FF_OK;
}

ff_status ff_field_cache_keep(ff_profile *f, const uint32_t *cells, size_t ncells,
                              const double *dist, const uint8_t *dir, size_t n, ff_error *err)
{
    ff_field_cache *c = &f->cache;
    size_t k;

    if (!c->valid || c->whole)
        return FF_OK;
    if (!c->kept && !(c->kept = calloc(n, 1)))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the field cache");
    if (!cells || ncells >= n - c->ncells)
        return keep_every(f, dist, dir, n, err);
    for (k = 0; k < ncells; k++) {
        uint32_t i = cells[k];
        if (c->kept[i])
            continue;
        if (make_room(c, c->ncells + 1) < 0)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the field cache");
        c->kept[i] = 1;
        c->cell[c->ncells] = i;
        put(c, c->ncells++, f, i, dist, dir);
    }
    return FF_OK;
}

#define SWAP(T, a, b) do { T swap_ = (a); (a) = (b); (b) = swap_; } while (0)

void ff_field_cache_take(ff_profile *f, uint64_t key_left, size_t n)
{
    ff_field_cache *c = &f->cache;
    uint64_t id = c->id;
    int flat = c->flat;
    size_t k;

    for (k = 0; k < c->ncells; k++) {
        size_t i = c->whole ? k : c->cell[k];
        SWAP(float, f->grid.cost[i], c->cost[k]);
        SWAP(double, f->next_distance[i], c->distance[k]);
        SWAP(uint8_t, f->next_direction[i], c->direction[k]);
        SWAP(uint8_t, f->step_mask[i], c->step_mask[k]);
        SWAP(uint8_t, f->lead_layer[i], c->lead_layer[k]);
    }
    ff_profile_differ(f, c->whole ? NULL : c->cell, c->ncells, n);
    SWAP(uint32_t *, f->grid.goals, c->goals);
    SWAP(size_t, f->grid.ngoals, c->ngoals);
    c->id = ff_profile_pending(f) ? f->next_id : f->id;
    c->flat = f->flat;
    c->map_key = key_left;
    f->next_id = id;
    f->flat = flat;
}
