/* profiles.c - per-radius fields and their rebuilds; see profiles.h. */
#define _POSIX_C_SOURCE 200809L
#include "grow.h"
#include "profiles.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "direction.h"
#include "grow.h"
#include "hash.h"
#include "search.h"
#include "stream.h"
#include "turn.h"

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The profile's goals: those of a goal change (goal_set), of its class,
 * or the map's; n of them. */
static const uint32_t *goal_list(const ff_profiles *p, const ff_profile *f, size_t *n)
{
    if (f->goal_set) {
        *n = f->ngoal_set;
        return f->goal_set;
    }
    if (f->goal_class >= 0) {
        *n = (size_t)p->scenario->cls[f->goal_class].ngoals;
        return p->scenario->cls[f->goal_class].goal;
    }
    *n = p->map.ngoals;
    return p->map.goals;
}

/* The profile grid's goals: the profile's own, only those left open.
 * 0 when no goal is left. */
static ff_status grid_goals(ff_profiles *p, ff_profile *f, size_t *open_goals, ff_error *err)
{
    size_t k, n = 0, m;
    const uint32_t *list = goal_list(p, f, &m);

    if (list != f->grid.goals) {
        uint32_t *goals = realloc(f->grid.goals, (m ? m : 1) * sizeof *goals);
        if (!goals)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for goals");
        if (m)
            memcpy(goals, list, m * sizeof *goals);
        f->grid.goals = goals;
        f->grid.ngoals = m;
    }
    for (k = 0; k < f->grid.ngoals; k++)
        if (ff_grid_open(&f->grid, f->grid.goals[k]))
            f->grid.goals[n++] = f->grid.goals[k];
    f->grid.ngoals = n;
    *open_goals = n;
    return FF_OK;
}

/* The profile's grid from the current map: its clearance, then only the
 * goals left open.  0 when no goal is left. */
static ff_status make_grid(ff_profiles *p, ff_profile *f, size_t *open_goals, ff_error *err)
{
    ff_status st;

    ff_grid_free(&f->grid);
    if ((st = ff_grid_copy(&f->grid, &p->map, err)) != FF_OK)
        return st;
    if ((st = ff_grid_apply_clearance(&f->grid, f->radius, err)) != FF_OK)
        return st;
    return grid_goals(p, f, open_goals, err);
}

/* Cells open on the map but closed by the profile's clearance have no
 * direction of their own; an agent standing there (placed near a wall,
 * or pushed) must not stop.  They get, layer by layer outward from the
 * cells that have one, a direction toward the neighbour of an earlier
 * layer (a legal step on the map) that is nearest to a goal; ties go to
 * the first direction code.  So they lead back into the profile's room,
 * never deeper into a passage it does not fit.  Two layers hold every
 * cell an agent clear of the walls by its radius can stand in (its cell's
 * center is at most 0.71 cell from it); more would chain along the walls
 * into rooms the profile cannot reach.
 *
 * A cell's layer depends only on its neighbours' (layer 1: a step to a
 * cell with a field direction; layer 2: else a step to a layer-1 cell),
 * so the layers can be made for a few cells as well as for all, in place:
 * lead_layer[] says which cells are led out, and in which layer. */
#define LEAD_OUT_LAYERS 2

/* 1 when cell i, open on the map, is closed for the profile. */
static int led_out_cell(const ff_profiles *p, const ff_profile *f, size_t i)
{
    return ff_grid_open(&p->map, i) && !ff_grid_open(&f->grid, i);
}

/* Lead cell i out in layer (1 or 2) into dir/dist from its neighbours of
 * the layer before (0: a field direction); 1 when it found one. */
static int lead_cell(const ff_profiles *p, const ff_profile *f, size_t i, int layer,
                     uint8_t *dir, double *dist)
{
    const ff_grid *m = &p->map;
    int x = (int)(i % (size_t)m->w), y = (int)(i / (size_t)m->w), d, best = -1;
    double best_dist = INFINITY;

    for (d = 0; d < 8; d++) {
        size_t j;
        int source;
        if (!ff_grid_step_ok(m, x, y, d))
            continue;
        j = (size_t)(y + ff_dir_dy[d]) * (size_t)m->w + (size_t)(x + ff_dir_dx[d]);
        source = layer == 1 ? ff_grid_open(&f->grid, j) && dir[j] != FF_DIR_NONE
                            : f->lead_layer[j] == 1;
        if (source && (best < 0 || dist[j] < best_dist)) {
            best = d;
            best_dist = dist[j];
        }
    }
    if (best < 0)
        return 0;
    dir[i] = (uint8_t)best;
    dist[i] = best_dist + ff_grid_step_cost(m, i, best);
    f->lead_layer[i] = (uint8_t)layer;
    return 1;
}

/* The layers of lead-out, in order, for cells[0..n) (or the first n
 * cells, cells NULL) that are not led out yet. */
static void lead_layers(ff_profiles *p, ff_profile *f, const uint32_t *cells, size_t n,
                        uint8_t *dir, double *dist)
{
    size_t k;
    int layer;

    for (layer = 1; layer <= LEAD_OUT_LAYERS; layer++)
        for (k = 0; k < n; k++) {
            size_t i = cells ? cells[k] : k;
            if (!f->lead_layer[i] && dir[i] == FF_DIR_NONE && led_out_cell(p, f, i))
                lead_cell(p, f, i, layer, dir, dist);
        }
}

/* Make the lead-out of cells[0..ncells) (or of every cell, cells NULL)
 * again in dir/dist, the field's own directions and distances being set:
 * every cell listed loses its old lead-out, then the layers are made in
 * order.  The other cells' lead-out must not depend on the listed ones
 * (list every cell within LEAD_OUT_LAYERS + 1 of what changed).  *changed
 * is set to 1 when a listed cell's direction, distance or layer changed. */
static ff_status lead_out(ff_profiles *p, ff_profile *f, const uint32_t *cells, size_t ncells,
                          uint8_t *dir, double *dist, int *changed, ff_error *err)
{
    size_t n = cells ? ncells : (size_t)p->map.w * (size_t)p->map.h, k;
    uint8_t *old_dir = malloc(n ? n : 1), *old_layer = malloc(n ? n : 1);
    double *old_dist = malloc((n ? n : 1) * sizeof *old_dist);

    if (!old_dir || !old_layer || !old_dist) {
        free(old_dir);
        free(old_layer);
        free(old_dist);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the lead-out");
    }
    for (k = 0; k < n; k++) {
        size_t i = cells ? cells[k] : k;
        old_dir[k] = dir[i];
        old_dist[k] = dist[i];
        old_layer[k] = f->lead_layer[i];
        if (f->lead_layer[i]) {
            f->lead_layer[i] = 0;
            if (!ff_grid_open(&f->grid, i)) {
                dir[i] = FF_DIR_NONE;
                dist[i] = INFINITY;
            }
        }
    }
    lead_layers(p, f, cells, n, dir, dist);
    *changed = 0;
    for (k = 0; k < n && !*changed; k++) {
        size_t i = cells ? cells[k] : k;
        *changed = old_dir[k] != dir[i] || old_layer[k] != f->lead_layer[i] ||
                   memcmp(&old_dist[k], &dist[i], sizeof dist[i]) != 0;
    }
    free(old_dir);
    free(old_layer);
    free(old_dist);
    return FF_OK;
}

/* The id of the field in next_*: the map id, the radius, the directions
 * (n of them; none for a field not built: see ff_profile.built). */
static uint64_t field_id(const ff_profile *f, size_t n)
{
    ff_hash h;

    ff_hash_init(&h);
    ff_hash_u64(&h, ff_grid_id(&f->grid));
    ff_hash_f64s(&h, &f->radius, 1);
    if (n)
        ff_hash_bytes(&h, f->next_direction, n);
    return ff_hash_final(&h);
}

/* What every new field of a profile ends with: its count, size and id,
 * and the own-path search told of the new grid. */
static void finish(ff_profiles *p, ff_profile *f)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h;

    if (f->astar.grid)
        ff_astar_retarget(&f->astar);
    f->next_id = field_id(f, n);
    p->builds++;
    p->build_bytes += n * (sizeof *f->next_distance + sizeof *f->next_direction);
}

/* With turn costs: each heading's directions of the build into
 * next_heading_direction, heading by heading.  A cell the lead-out gave a
 * direction (closed for this profile, so without states) keeps that
 * direction whatever the heading. */
static void heading_planes(ff_profiles *p, ff_profile *f, int built)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h, i;
    int h;

    for (h = 0; h < 8; h++) {
        uint8_t *plane = f->next_heading_direction + (size_t)h * n;
        if (built)
            ff_heading_plane(p->turn_direction, n, h, plane);
        for (i = 0; i < n; i++)
            if (!built || (plane[i] == FF_DIR_NONE && f->next_direction[i] != FF_DIR_NONE))
                plane[i] = f->next_direction[i];
    }
}

/* Search, directions and lead-out of the profile's grid (made by
 * make_grid, goals of them open), whole, into next_*. */
static ff_status build_field(ff_profiles *p, ff_profile *f, size_t goals, ff_error *err)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h, k;
    ff_status st;

    ff_grid_step_masks(&f->grid, f->step_mask);  /* (the directions' too) */
    if (goals == 0) {
        for (k = 0; k < n; k++) {
            f->next_distance[k] = INFINITY;
            f->next_direction[k] = FF_DIR_NONE;
        }
        f->flat = 0;
    } else if (p->turn) {
        if ((st = ff_turn_search(&f->grid, p->turn_cost, p->turn_distance, f->next_distance,
                                 err)) != FF_OK ||
            (st = ff_turn_direction(&f->grid, p->turn_cost, p->turn_distance, p->turn_direction,
                                    f->next_direction, err)) != FF_OK)
            return st;
        f->flat = 0;
    } else {
        if ((st = ff_search(&f->grid, f->next_distance, err)) != FF_OK ||
            (st = ff_direction_field_masks(&f->grid, f->next_distance, f->step_mask,
                                           f->next_direction, &f->flat, err)) != FF_OK)
            return st;
    }
    /* A whole new field: nothing led out yet, nothing to compare. */
    memset(f->lead_layer, 0, n);
    lead_layers(p, f, NULL, n, f->next_direction, f->next_distance);
    if (p->turn)
        heading_planes(p, f, goals > 0);
    finish(p, f);
    return FF_OK;
}

/* Clearance, search, directions and lead-out of the profile, whole, into
 * next_*. */
static ff_status build(ff_profiles *p, ff_profile *f, ff_error *err)
{
    size_t goals = 0;
    ff_status st;

    if ((st = make_grid(p, f, &goals, err)) != FF_OK)
        return st;
    return build_field(p, f, goals, err);
}

/* ---- the field cache: the state of the map before ---- */

static void cache_free(ff_field_cache *c)
{
    free(c->cost);
    free(c->goals);
    free(c->distance);
    free(c->direction);
    free(c->step_mask);
    free(c->lead_layer);
    memset(c, 0, sizeof *c);
}

/* 1 when next_* is a field awaiting publication (then it is the latest;
 * else the published one is). */
static int pending(const ff_profile *f)
{
    return f->publish_tick >= 0;
}

/* Make next_* the latest field (a copy of the published one unless a
 * field awaits publication there). */
static void latest_to_next(ff_profile *f, size_t n)
{
    if (pending(f))
        return;
    memcpy(f->next_distance, f->distance, n * sizeof *f->distance);
    memcpy(f->next_direction, f->direction, n);
}

/* Keep the profile's latest field, for the map's state key, in its cache
 * (copies). */
static ff_status cache_store(ff_profile *f, uint64_t key, size_t n, ff_error *err)
{
    ff_field_cache *c = &f->cache;
    const double *dist = pending(f) ? f->next_distance : f->distance;
    const uint8_t *dir = pending(f) ? f->next_direction : f->direction;
    uint32_t *goals;

    if (!c->cost) {
        c->cost = malloc(n * sizeof *c->cost);
        c->distance = malloc(n * sizeof *c->distance);
        c->direction = malloc(n);
        c->step_mask = malloc(n);
        c->lead_layer = malloc(n);
        if (!c->cost || !c->distance || !c->direction || !c->step_mask || !c->lead_layer) {
            cache_free(c);
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
    c->id = pending(f) ? f->next_id : f->id;
    c->flat = f->flat;
    c->map_key = key;
    c->goal_version = f->goal_version;
    c->valid = 1;
    return FF_OK;
}

#define SWAP(T, a, b) do { T swap_ = (a); (a) = (b); (b) = swap_; } while (0)

/* Take the cached field into the profile (its grid at once, its field
 * into next_*), leaving in the cache the latest field, for the state key
 * left: swaps, and a copy of the published field when none is pending. */
static void cache_take(ff_profile *f, uint64_t key_left, size_t n)
{
    ff_field_cache *c = &f->cache;
    uint64_t id = c->id;
    int flat = c->flat, was_pending = pending(f);

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
    c->goal_version = f->goal_version;
    f->next_id = id;
    f->flat = flat;
    f->astar.step_mask = f->step_mask;
}

/* ---- map events ---- */

/* 1 when the map cells changed this tick touch a goal of the profile, or
 * the cleared changes ch do (a goal closed or opened again: the goals
 * change, and only a whole build drops them). */
static int goals_touched(const ff_profiles *p, const ff_profile *f, const ff_cell_change *ch,
                         size_t nch)
{
    size_t k;

    for (k = 0; k < nch; k++)
        if (f->goal_mask[ch[k].cell])
            return 1;
    for (k = 0; k < p->nchanged; k++)
        if (f->goal_mask[p->changed[k]])
            return 1;
    return 0;
}

/* The cells within reach (Chebyshev) of the listed ones, each once, into
 * *out (grown; *cap its room). */
static ff_status dilate(ff_profiles *p, const uint32_t *const *lists, const size_t *counts,
                        int nlists, int reach, uint32_t **out, size_t *nout, size_t *cap,
                        ff_error *err)
{
    const ff_grid *m = &p->map;
    int l, dx, dy;
    size_t k;

    *nout = 0;
    for (l = 0; l < nlists; l++)
        for (k = 0; k < counts[l]; k++) {
            int x = (int)(lists[l][k] % (uint32_t)m->w), y = (int)(lists[l][k] / (uint32_t)m->w);
            for (dy = -reach; dy <= reach; dy++)
                for (dx = -reach; dx <= reach; dx++) {
                    size_t i;
                    if (x + dx < 0 || y + dy < 0 || x + dx >= m->w || y + dy >= m->h)
                        continue;
                    i = (size_t)(y + dy) * (size_t)m->w + (size_t)(x + dx);
                    if (p->mark[i])
                        continue;
                    if (*nout == *cap) {
                        uint32_t *q = ff_grow(*out, cap, *nout + 1, sizeof *q, 1024);
                        if (!q) {
                            for (k = 0; k < *nout; k++)
                                p->mark[(*out)[k]] = 0;
                            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
                        }
                        *out = q;
                    }
                    p->mark[i] = 1;
                    (*out)[(*nout)++] = (uint32_t)i;
                }
        }
    for (k = 0; k < *nout; k++)
        p->mark[(*out)[k]] = 0;
    return FF_OK;
}

/* The step masks of the cells within one of the cleared changes. */
static void update_step_masks(const ff_profile *f, const uint32_t *cells, size_t n)
{
    const ff_grid *g = &f->grid;
    size_t k;
    int d;

    for (k = 0; k < n; k++) {
        size_t i = cells[k];
        int x = (int)(i % (size_t)g->w), y = (int)(i / (size_t)g->w);
        uint8_t m = 0;
        if (ff_grid_open(g, i))
            for (d = 0; d < g->moves; d++)
                if (ff_grid_step_ok(g, x, y, d))
                    m |= (uint8_t)(1u << d);
        f->step_mask[i] = m;
    }
}

/* The profile after the map changed, by 'rebuild full': the clearance
 * whole; if the profile's grid changed, the field whole; else only its
 * lead-out may have, made whole again.  *affected says whether the field
 * changed. */
static ff_status rebuild_full(ff_profiles *p, ff_profile *f, int *affected, ff_error *err)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h, goals = 0;
    ff_grid old = f->grid;
    ff_status st;

    /* make_grid makes the grid anew: keep the old one to compare. */
    ff_grid_init(&f->grid);
    if ((st = make_grid(p, f, &goals, err)) != FF_OK) {
        ff_grid_free(&old);
        return st;
    }
    if (old.ngoals != f->grid.ngoals ||
        (old.ngoals && memcmp(old.goals, f->grid.goals, old.ngoals * sizeof *old.goals) != 0) ||
        memcmp(old.cost, f->grid.cost, n * sizeof *old.cost) != 0) {
        ff_grid_free(&old);
        *affected = 1;
        return build_field(p, f, goals, err);
    }
    ff_grid_free(&old);
    latest_to_next(f, n);
    if ((st = lead_out(p, f, NULL, 0, f->next_direction, f->next_distance, affected, err)) !=
        FF_OK)
        return st;
    if (*affected)
        finish(p, f);
    return FF_OK;
}

/* The profile after the map changed, by 'rebuild repair': the clearance's
 * changes found near the changed cells; none, and only the lead-out near
 * them may change; else the field taken from the cache when it holds the
 * map's new state, or repaired (the state left kept in the cache).  A
 * change of goals is built whole.  *affected says whether the field
 * changed. */
static ff_status rebuild_repair(ff_profiles *p, ff_profile *f, uint64_t key_left, int *affected,
                                ff_error *err)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h, nch = 0, cap = 0, nmoved, nnear = 0;
    size_t near_cap = 0, nrim = 0, rim_cap = 0, counts[3];
    ff_cell_change *ch = NULL;
    uint32_t *near = NULL, *rim = NULL, *cleared = NULL;
    const uint32_t *lists[3];
    const uint32_t *moved;
    ff_repair_stats rs;
    ff_status st;
    size_t k;

    *affected = 0;
    if ((st = ff_repair_cleared_changes(&f->repair, &p->map, f->radius, &f->grid, p->changed,
                                        p->nchanged, &ch, &nch, &cap, err)) != FF_OK)
        goto done;
    if (goals_touched(p, f, ch, nch)) {
        *affected = 1;
        st = build(p, f, err);
        goto done;
    }
    if (nch > 0 && f->cache.valid && f->cache.map_key == p->map_key &&
        f->cache.goal_version == f->goal_version) {
        cache_take(f, key_left, n);
        p->cache_hits++;
        p->builds++;
        p->build_bytes += n * (sizeof *f->next_distance + sizeof *f->next_direction);
        if (f->astar.grid)
            ff_astar_retarget(&f->astar);
        *affected = 1;
        goto done;
    }
    if (nch > 0 && (st = cache_store(f, key_left, n, err)) != FF_OK)
        goto done;
    if (nch > 0)
        latest_to_next(f, n);
    cleared = malloc((nch ? nch : 1) * sizeof *cleared);
    if (!cleared) {
        st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for a repair");
        goto done;
    }
    for (k = 0; k < nch; k++)
        cleared[k] = ch[k].cell;
    if (nch > 0) {
        *affected = 1;
        if ((st = ff_repair_field(&f->repair, &f->grid, f->next_distance, ch, nch, &rs, err)) !=
                FF_OK ||
            (st = ff_repair_directions(&f->repair, &f->grid, f->next_distance, f->next_direction,
                                       &f->flat, err)) != FF_OK)
            goto done;
        if (rs.rebuilt) {
            /* The repair searched the whole map: so must the rest. */
            memset(f->lead_layer, 0, n);
            if ((st = lead_out(p, f, NULL, 0, f->next_direction, f->next_distance, affected,
                               err)) != FF_OK)
                goto done;
            *affected = 1;
            ff_grid_step_masks(&f->grid, f->step_mask);
            finish(p, f);
            goto done;
        }
        lists[0] = cleared;
        counts[0] = nch;
        if ((st = dilate(p, lists, counts, 1, 1, &rim, &nrim, &rim_cap, err)) != FF_OK)
            goto done;
        update_step_masks(f, rim, nrim);
    }
    moved = ff_repair_moved(&f->repair, &nmoved);
    lists[0] = p->changed;
    counts[0] = p->nchanged;
    lists[1] = cleared;
    counts[1] = nch;
    lists[2] = moved;
    counts[2] = nch > 0 ? nmoved : 0;
    if ((st = dilate(p, lists, counts, 3, LEAD_OUT_LAYERS + 1, &near, &nnear, &near_cap, err)) !=
        FF_OK)
        goto done;
    if (nch == 0) {
        /* Only the lead-out can change: look before copying anything. */
        for (k = 0; k < nnear && !f->lead_layer[near[k]] && !led_out_cell(p, f, near[k]); k++)
            ;
        if (k == nnear)
            goto done;
        latest_to_next(f, n);
    }
    {
        int lead_changed;
        if ((st = lead_out(p, f, near, nnear, f->next_direction, f->next_distance, &lead_changed,
                           err)) != FF_OK)
            goto done;
        *affected |= lead_changed;
    }
    if (*affected)
        finish(p, f);
done:
    free(ch);
    free(near);
    free(rim);
    free(cleared);
    return st;
}

static void publish(ff_profile *f, long long t)
{
    double *d = f->distance;
    uint8_t *dir = f->direction;

    f->distance = f->next_distance;
    f->direction = f->next_direction;
    f->next_distance = d;
    f->next_direction = dir;
    dir = f->heading_direction;
    f->heading_direction = f->next_heading_direction;
    f->next_heading_direction = dir;
    f->id = f->next_id;
    f->stale = 0;
    f->publish_tick = -1;
    f->published_tick = t;
}

/* The radius class k's field is built for. */
static double class_radius(const ff_scenario *s, size_t k)
{
    return s->profiles ? s->cls[k].radius : 0;
}

/* 1 when classes i and j can share a field: radii that close the same
 * cells (key, ff_clearance_key of each class), the same goals, and no
 * goal changes (a class with any has a field of its own). */
static int same_profile(const ff_scenario *s, const double *key, size_t i, size_t j)
{
    const ff_agent_class *a = &s->cls[i], *b = &s->cls[j];
    return (i == j || (!a->goal_events && !b->goal_events)) && key[i] == key[j] &&
           a->ngoals == b->ngoals &&
           memcmp(a->goal, b->goal, (size_t)a->ngoals * sizeof *a->goal) == 0;
}

static const ff_scenario *sort_scenario;

/* Profiles by radius, then by their class. */
static int cmp_first_class(const void *pa, const void *pb)
{
    size_t i = *(const size_t *)pa, j = *(const size_t *)pb;
    double ri = class_radius(sort_scenario, i), rj = class_radius(sort_scenario, j);
    if (ri != rj)
        return ri < rj ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* The classes of s in profiles: rep[j] (s->nclasses + 1 entries) is the
 * class of profile j, its smallest radius (the first such class), profiles
 * by that radius, then that class; class_profile[k] (s->nclasses) the
 * profile of class k.  Without classes, one profile (rep[0] = 0). */
static ff_status group_classes(const ff_scenario *s, const ff_grid *stream, size_t *rep,
                               int32_t *class_profile, size_t *nprofiles, ff_error *err)
{
    double *key = malloc((s->nclasses ? s->nclasses : 1) * sizeof *key);
    size_t k, j, m = 0;

    if (!key)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the fields");
    for (k = 0; k < s->nclasses; k++)
        key[k] = ff_clearance_key(stream, class_radius(s, k));
    for (k = 0; k < s->nclasses; k++) {
        for (j = 0; j < m && !same_profile(s, key, rep[j], k); j++)
            ;
        if (j == m)
            rep[m++] = k;
        else if (class_radius(s, k) < class_radius(s, rep[j]))
            rep[j] = k;
    }
    if (m == 0)
        rep[m++] = 0;  /* no classes: one field of the stream's goals */
    sort_scenario = s;
    qsort(rep, m, sizeof *rep, cmp_first_class);
    sort_scenario = NULL;
    for (k = 0; k < s->nclasses; k++) {
        for (j = 0; j < m && !same_profile(s, key, rep[j], k); j++)
            ;
        class_profile[k] = (int32_t)j;
    }
    free(key);
    *nprofiles = m;
    return FF_OK;
}

/* 1 unless the agents of group k, those of class k (class_profile NULL)
 * or of the classes of profile k, are some and every one has a goal of
 * its own: then nobody follows the group's field. */
static int group_follows(const ff_scenario *s, const int32_t *class_profile, int32_t k)
{
    size_t i, agents = 0;

    for (i = 0; i < s->nagents; i++) {
        int32_t c = s->agent[i].cls;
        if ((class_profile ? class_profile[c] : c) == k) {
            if (s->agent[i].goal < 0)
                return 1;
            agents++;
        }
    }
    return agents == 0;
}

/* 1 when profile k of scenario s needs its field from the start: some
 * agent of its classes has no goal of its own (it follows the profile's
 * field), or none has any agent, or with congestion (its fields start
 * from the profiles') or turn costs.  Own goals' fields read only the
 * profile's grid and steps. */
static int followed(const ff_profiles *p, const ff_scenario *s, int32_t k)
{
    if (p->turn || s->congestion || s->nclasses == 0)
        return 1;
    return group_follows(s, p->class_profile, k);
}

/* The arrays of profile f's field on n cells (see ff_profile.built).
 * FF_ENOMEM. */
static ff_status field_arrays(ff_profile *f, size_t n, ff_error *err)
{
    f->distance = malloc(n * sizeof *f->distance);
    f->next_distance = malloc(n * sizeof *f->next_distance);
    f->direction = malloc(n);
    f->next_direction = malloc(n);
    f->lead_layer = calloc(n, 1);
    if (!f->distance || !f->next_distance || !f->direction || !f->next_direction || !f->lead_layer)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the fields");
    f->built = 1;
    return FF_OK;
}

/* Build the field of profile f that nobody followed, on its grid as it
 * was made at the start (no map event yet): published at once, with the
 * id it would have had from the start (the field a rebuild starts
 * from; see ff_profile.built). */
static ff_status build_late(ff_profiles *p, ff_profile *f, ff_error *err)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h;
    ff_status st;

    if ((st = field_arrays(f, n, err)) != FF_OK ||
        (st = build_field(p, f, f->grid.ngoals, err)) != FF_OK)
        return st;
    f->unbuilt_id = f->id;
    publish(f, f->published_tick);  /* (as it was at the start: published then) */
    f->late_id = f->id;
    return FF_OK;
}

ff_status ff_profiles_plan(const ff_scenario *s, const ff_grid *stream, int32_t *class_profile,
                           size_t *nprofiles, ff_error *err)
{
    size_t *rep = malloc((s->nclasses + 1) * sizeof *rep);
    ff_status st;

    if (!rep)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the fields");
    st = group_classes(s, stream, rep, class_profile, nprofiles, err);
    free(rep);
    return st;
}

ff_status ff_profiles_init(ff_profiles *p, const ff_scenario *s, const ff_grid *stream,
                           const char *scen_name, ff_error *err)
{
    return ff_profiles_init_turn(p, s, stream, 0, 0, scen_name, err);
}

ff_status ff_profiles_init_turn(ff_profiles *p, const ff_scenario *s, const ff_grid *stream,
                                int turn, double turn_cost, const char *scen_name,
                                ff_error *err)
{
    size_t n = (size_t)stream->w * (size_t)stream->h, k, j, m = 0;
    size_t *first = NULL;   /* per profile: its class (group_classes) */
    double t0;
    ff_status st;

    memset(p, 0, sizeof *p);
    p->turn = turn;
    p->turn_cost = turn_cost;
    if (turn && (uint64_t)n > FF_TURN_MAX_CELLS)
        return ff_error_set(err, FF_EINPUT, NULL, 0, 0,
                            "map of %zu cells is too large for a turn-cost field", n);
    if (turn && (!(p->turn_distance = ff_turn_distances_alloc(n)) ||
                 !(p->turn_direction = malloc(8 * n)))) {
        free(p->turn_distance);
        free(p->turn_direction);
        p->turn_distance = NULL;
        p->turn_direction = NULL;
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the headings");
    }
    p->scenario = s;
    p->map_tick = -1;
    p->late_tick = -1;
    ff_grid_init(&p->base);  /* (made at the first map event) */
    if ((st = ff_grid_copy(&p->map, stream, err)) != FF_OK)
        goto failed;
    first = malloc((s->nclasses + 1) * sizeof *first);
    p->mark = calloc(n, 1);
    p->class_profile = calloc(s->nclasses + 1, sizeof *p->class_profile);
    if (!first || !p->class_profile || !p->mark)
        goto nomem;
    if ((st = group_classes(s, stream, first, p->class_profile, &m, err)) != FF_OK)
        goto failed;
    if (!(p->profile = calloc(m, sizeof *p->profile)))
        goto nomem;
    p->nprofiles = m;
    for (k = 0; k < m; k++) {
        ff_profile *f = &p->profile[k];
        size_t g;
        f->radius = s->nclasses ? class_radius(s, first[k]) : 0;
        f->goal_class = s->nclasses && s->cls[first[k]].ngoals ? (int32_t)first[k] : -1;
        f->publish_tick = -1;
        ff_grid_init(&f->grid);
        f->goal_mask = calloc(n, 1);
        f->step_mask = malloc(n);
        if (turn) {
            f->heading_direction = malloc(8 * n);
            f->next_heading_direction = malloc(8 * n);
        }
        ff_repair_init(&f->repair);
        if (!f->goal_mask || !f->step_mask ||
            (turn && (!f->heading_direction || !f->next_heading_direction)))
            goto nomem;
        if (f->goal_class >= 0)
            for (g = 0; g < (size_t)s->cls[f->goal_class].ngoals; g++)
                f->goal_mask[s->cls[f->goal_class].goal[g]] = 1;
        else
            for (g = 0; g < stream->ngoals; g++)
                f->goal_mask[stream->goals[g]] = 1;
        t0 = cpu_seconds();
        if (followed(p, s, (int32_t)k)) {
            if ((st = field_arrays(f, n, err)) != FF_OK || (st = build(p, f, err)) != FF_OK)
                goto failed;
        } else {
            /* Nobody follows it: its grid and steps (own goals' fields
             * are built on them), its field only when a map event comes
             * (ff_profiles_tick). */
            if ((st = make_grid(p, f, &g, err)) != FF_OK)
                goto failed;
            ff_grid_step_masks(&f->grid, f->step_mask);
            f->next_id = field_id(f, 0);
        }
        if ((st = ff_astar_init(&f->astar, &f->grid, err)) != FF_OK)
            goto failed;
        p->build_seconds += cpu_seconds() - t0;
        f->astar.step_mask = f->step_mask;
        publish(f, 0);
    }
    /* A class whose agents all have goals of their own needs none (a map
     * read in place of a stream may have none at all). */
    for (k = 0; k < s->nclasses; k++) {
        j = (size_t)p->class_profile[k];
        if (p->profile[j].grid.ngoals == 0 && group_follows(s, NULL, (int32_t)k)) {
            st = ff_error_set(err, FF_EINPUT, scen_name, s->cls[k].line, 1,
                              "class %s: no field possible: every goal cell is closed by its "
                              "clearance radius %g", s->cls[k].name, s->cls[k].radius);
            goto failed;
        }
    }
    free(first);
    return FF_OK;
nomem:
    st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the fields");
failed:
    free(first);
    ff_profiles_free(p);
    return st;
}

void ff_profiles_free(ff_profiles *p)
{
    size_t k;
    for (k = 0; k < p->nprofiles; k++) {
        ff_profile *f = &p->profile[k];
        ff_astar_free(&f->astar);
        ff_grid_free(&f->grid);
        free(f->distance);
        free(f->next_distance);
        free(f->direction);
        free(f->next_direction);
        free(f->goal_mask);
        free(f->step_mask);
        free(f->heading_direction);
        free(f->next_heading_direction);
        free(f->lead_layer);
        ff_repair_free(&f->repair);
        cache_free(&f->cache);
    }
    free(p->changed);
    free(p->mark);
    free(p->turn_distance);
    free(p->turn_direction);
    free(p->profile);
    free(p->class_profile);
    ff_grid_free(&p->base);
    ff_grid_free(&p->map);
    memset(p, 0, sizeof *p);
}

/* A hash of cell i, for the map's state key (Zobrist's hashing: the key
 * is the exclusive or of the changed cells'). */
static uint64_t cell_key(size_t i)
{
    uint64_t z = (uint64_t)i + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Set cell i of the map to cost now (its base cost, or +inf), listing it
 * and keeping the map's key when that changes it; -1 when out of memory. */
static int set_cell(ff_profiles *p, size_t i, float now)
{
    int was_changed = memcmp(&p->map.cost[i], &p->base.cost[i], sizeof now) != 0;

    if (memcmp(&now, &p->map.cost[i], sizeof now) == 0)
        return 0;
    p->map.cost[i] = now;
    if (was_changed != (memcmp(&now, &p->base.cost[i], sizeof now) != 0))
        p->map_key ^= cell_key(i);
    if (p->nchanged == p->changed_cap) {
        uint32_t *q = ff_grow(p->changed, &p->changed_cap, p->nchanged + 1, sizeof *q, 256);
        if (!q)
            return -1;
        p->changed = q;
    }
    p->changed[p->nchanged++] = (uint32_t)i;
    return 0;
}

/* The events first..last-1 of one tick, when they cover more cells than
 * the map has: each cell set once, by the last event that covers it
 * (painted from the last back, each row's cells found through a pointer
 * to the next one not yet painted): work is the map's cells and the
 * events' rows, however many events a tick has. */
static ff_status apply_painted(ff_profiles *p, size_t first, size_t last, ff_error *err)
{
    const ff_scenario *s = p->scenario;
    uint32_t w = (uint32_t)p->map.w, *next;
    size_t n = (size_t)p->map.w * (size_t)p->map.h, i, k;

    if (!(next = malloc(n * sizeof *next)))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
    for (i = 0; i < n; i++)
        next[i] = (uint32_t)(i % w);
    for (k = last; k-- > first;) {
        const ff_map_event *e = &s->event[k];
        int32_t y;
        for (y = e->y0; y <= e->y1; y++) {
            size_t row = (size_t)y * w;
            uint32_t x = (uint32_t)e->x0, root, up;
            for (;;) {
                /* The next cell not yet painted, the path compressed. */
                for (root = x; root < w && next[row + root] != root; root = next[row + root])
                    ;
                while (x != root) {
                    up = next[row + x];
                    next[row + x] = root;
                    x = up;
                }
                if (root > (uint32_t)e->x1)
                    break;
                next[row + root] = root + 1;
                if (set_cell(p, row + root, e->close ? INFINITY : p->base.cost[row + root]) < 0) {
                    free(next);
                    return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
                }
                x = root + 1;
            }
        }
    }
    free(next);
    return FF_OK;
}

/* Apply the events of tick t to the map, listing the cells that changed. */
static ff_status apply_events(ff_profiles *p, long long t, int *map_changed, ff_error *err)
{
    const ff_scenario *s = p->scenario;
    size_t first, last, k;
    uint64_t area = 0;

    p->nchanged = 0;
    /* Events before the first tick asked for are passed over. */
    while (p->next_event < s->nevents && s->event[p->next_event].tick < t)
        p->next_event++;
    first = p->next_event;
    for (last = first; last < s->nevents && s->event[last].tick == t; last++)
        area += (uint64_t)(s->event[last].x1 - s->event[last].x0 + 1) *
                (uint64_t)(s->event[last].y1 - s->event[last].y0 + 1);
    p->next_event = last;
    if (last == first)
        return FF_OK;
    *map_changed = 1;
    if (area > (uint64_t)p->map.w * (uint64_t)p->map.h)
        return apply_painted(p, first, last, err);
    for (k = first; k < last; k++) {
        const ff_map_event *e = &s->event[k];
        int32_t x, y;
        for (y = e->y0; y <= e->y1; y++)
            for (x = e->x0; x <= e->x1; x++) {
                size_t i = (size_t)y * (size_t)p->map.w + (size_t)x;
                if (set_cell(p, i, e->close ? INFINITY : p->base.cost[i]) < 0)
                    return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
            }
    }
    return FF_OK;
}

ff_status ff_profiles_tick(ff_profiles *p, long long t, int *map_changed, ff_error *err)
{
    const ff_scenario *s = p->scenario;
    /* The processor clock only when an event is due (a system call). */
    int due = p->next_event < s->nevents && s->event[p->next_event].tick <= t;
    double t0 = due ? cpu_seconds() : 0;
    uint64_t key_left = p->map_key;
    size_t k;
    long long order = 0;
    ff_status st;

    *map_changed = 0;
    /* Before the first map event the map is the stream's. */
    if (due && !p->base.cost && (st = ff_grid_copy(&p->base, &p->map, err)) != FF_OK)
        return st;
    for (k = 0; due && k < p->nprofiles; k++)
        if (!p->profile[k].built) {
            if ((st = build_late(p, &p->profile[k], err)) != FF_OK)
                return st;
            p->late_tick = t;
        }
    if ((st = apply_events(p, t, map_changed, err)) != FF_OK)
        return st;
    if (*map_changed)
        p->map_tick = t;
    if (p->nchanged > 0) {
        double spent;
        for (k = 0; k < p->nprofiles; k++) {
            ff_profile *f = &p->profile[k];
            int affected = 0;
            st = s->rebuild_full || p->turn ? rebuild_full(p, f, &affected, err)
                                 : rebuild_repair(p, f, key_left, &affected, err);
            if (st != FF_OK)
                return st;
            if (!affected)
                continue;
            f->stale = 1;
            /* One builder: the changed fields one after another,
             * smallest radius first, each taking rebuild-ticks. */
            f->publish_tick = t + (++order) * s->rebuild_ticks;
        }
        spent = cpu_seconds() - t0;
        p->build_seconds += spent;
        if (spent > p->rebuild_seconds_max)
            p->rebuild_seconds_max = spent;
    }
    for (k = 0; k < p->nprofiles; k++)
        if (p->profile[k].publish_tick >= 0 && p->profile[k].publish_tick <= t)
            publish(&p->profile[k], t);
    return FF_OK;
}

ff_status ff_profiles_set_goals(ff_profiles *p, size_t k, const uint32_t *goals, size_t n,
                                uint32_t version, int build, long long t, ff_error *err)
{
    ff_profile *f = &p->profile[k];
    size_t m, open;
    const uint32_t *old = goal_list(p, f, &m);
    ff_status st;

    while (m > 0)
        f->goal_mask[old[--m]] = 0;
    f->goal_set = goals;
    f->ngoal_set = n;
    f->goal_version = version;
    for (m = 0; m < n; m++)
        f->goal_mask[goals[m]] = 1;
    p->map_tick = t;
    if ((st = grid_goals(p, f, &open, err)) != FF_OK)
        return st;
    if (build && f->built)
        return build_field(p, f, open, err);  /* (retargets the own paths) */
    if (f->astar.grid)
        ff_astar_retarget(&f->astar);
    return FF_OK;
}

void ff_profiles_schedule(ff_profiles *p, size_t k, long long t, long long publish_tick,
                          int stale)
{
    ff_profile *f = &p->profile[k];

    if (publish_tick <= t) {
        publish(f, t);
        return;
    }
    f->publish_tick = publish_tick;
    f->stale |= stale;
}
