/* rebuild.c - a profile made again after a map event, whole or repaired;
 * see profilesint.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "profilesint.h"

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

/* 1 when the change is built whole, by either way: it touches a goal
 * (goals_touched), or it covers most of the map (the map's cells changed
 * this tick, or the profile's cleared changes ch, more than half of its
 * cells: then a whole build costs less than a repair). */
static int whole_change(const ff_profiles *p, const ff_profile *f, const ff_cell_change *ch,
                        size_t nch)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h;

    return goals_touched(p, f, ch, nch) || p->nchanged > n / 2 || nch > n / 2;
}

/* The changes of profile f's cleared grid that follow from the map's
 * changed cells (ff_repair_cleared_changes), into *ch (the caller frees
 * it), *nch of them. */
static ff_status cleared_changes(ff_profiles *p, ff_profile *f, ff_cell_change **ch, size_t *nch,
                                 ff_error *err)
{
    size_t cap = 0;

    *ch = NULL;
    *nch = 0;
    return ff_repair_cleared_changes(&f->repair, &p->map, f->radius, &f->grid, p->changed,
                                     p->nchanged, ch, nch, &cap, err);
}

/* The cells whose cost differs between the old grid and the profile's,
 * as ff_repair_cleared_changes() finds them: *nch of them, *goal 1 when
 * one is a goal cell of the profile. */
static void grid_changes(const ff_profile *f, const ff_grid *old, size_t n, size_t *nch, int *goal)
{
    size_t i;

    *nch = 0;
    *goal = 0;
    for (i = 0; i < n; i++)
        if (memcmp(&old->cost[i], &f->grid.cost[i], sizeof old->cost[i]) != 0) {
            ++*nch;
            *goal |= f->goal_mask[i];
        }
}

/* The profile's clearance made whole again; if its grid changed, the
 * field whole; else only its lead-out may have, made whole again.
 * *affected says whether the field changed; *nch and *goal what
 * grid_changes() says of its grid. */
static ff_status build_whole(ff_profiles *p, ff_profile *f, int *affected, size_t *nch, int *goal,
                             ff_error *err)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h, goals = 0;
    ff_grid old = f->grid;
    ff_status st;

    /* ff_profile_grid makes the grid anew: keep the old one to compare. */
    ff_grid_init(&f->grid);
    if ((st = ff_profile_grid(p, f, &goals, err)) != FF_OK) {
        ff_grid_free(&old);
        return st;
    }
    grid_changes(f, &old, n, nch, goal);
    if (old.ngoals != f->grid.ngoals ||
        (old.ngoals && memcmp(old.goals, f->grid.goals, old.ngoals * sizeof *old.goals) != 0) ||
        *nch > 0) {
        ff_grid_free(&old);
        *affected = 1;
        return ff_profile_build_field(p, f, goals, err);
    }
    ff_grid_free(&old);
    ff_profile_latest_to_next(f, n);
    if ((st = ff_lead_out(p, f, NULL, 0, f->next_direction, f->next_distance, affected, err)) !=
        FF_OK)
        return st;
    ff_profile_differ(f, NULL, 0, n);
    if (*affected)
        ff_profile_finish(p, f);
    return FF_OK;
}

ff_status ff_profile_rebuild_full(ff_profiles *p, ff_profile *f, uint64_t key_left, int *affected,
                                  int *cached, ff_error *err)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h, nch;
    int goal;
    ff_field_cache *c = &f->cache;
    ff_status st;

    *affected = *cached = 0;
    if ((st = build_whole(p, f, affected, &nch, &goal, err)) != FF_OK || p->turn)
        return st;
    /* The states the cache would hold under 'rebuild repair' (none with
     * turn costs), so that a field comes back at the same tick either
     * way: built whole here all the same.  (whole_change() from the
     * grids' difference.) */
    if (goal || goals_touched(p, f, NULL, 0) || p->nchanged > n / 2 || nch > n / 2)
        c->valid = 0;
    else if (nch > 0) {
        *cached = c->valid && c->map_key == p->map_key;
        c->valid = 1;
        c->map_key = key_left;
    }
    return FF_OK;
}

/* The lead-out of the cells near[0..nnear) made again, the latest field
 * in next_*, its values there kept in the cache first (dist and dir: the
 * latest field's as they were); *affected set to 1 when it changed. */
static ff_status lead_out_near(ff_profiles *p, ff_profile *f, const uint32_t *near, size_t nnear,
                               const double *dist, const uint8_t *dir, int *affected,
                               ff_error *err)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h;
    int changed;
    ff_status st;

    if ((st = ff_field_cache_keep(f, near, nnear, dist, dir, n, err)) != FF_OK ||
        (st = ff_lead_out(p, f, near, nnear, f->next_direction, f->next_distance, &changed, err)) !=
            FF_OK)
        return st;
    ff_profile_differ(f, near, nnear, n);
    *affected |= changed;
    return FF_OK;
}

/* A change of the map that leaves the profile's grid as it was: only the
 * lead-out near the changed cells may change. */
static ff_status lead_out_only(ff_profiles *p, ff_profile *f, int *affected, ff_error *err)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h, nnear = 0, cap = 0, k;
    const uint32_t *lists[1];
    uint32_t *near = NULL;
    ff_status st;

    lists[0] = p->changed;
    if ((st = dilate(p, lists, &p->nchanged, 1, FF_LEAD_OUT_LAYERS + 1, &near, &nnear, &cap,
                     err)) != FF_OK)
        return st;
    /* Look before making anything the latest. */
    for (k = 0; k < nnear && !f->lead_layer[near[k]] && !ff_led_out_cell(p, f, near[k]); k++)
        ;
    if (k < nnear) {
        /* (The latest field's id, before: its trees are told the cells.) */
        uint64_t from = ff_profile_pending(f) ? f->next_id : f->id;
        ff_profile_latest_to_next(f, n);
        st = lead_out_near(p, f, near, nnear, f->next_distance, f->next_direction, affected, err);
        if (st == FF_OK && *affected) {
            ff_profile_tell_trees(f, from, NULL, 0, near, nnear);
            ff_profile_finish(p, f);
        }
    }
    free(near);
    return st;
}

/* The profile's field repaired for its cleared changes ch[0..nch), nch >
 * 0: distances, directions, steps and lead-out near them, the field left
 * kept in the cache for the state key_left cell by cell before each
 * change. */
static ff_status repair(ff_profiles *p, ff_profile *f, const ff_cell_change *ch, size_t nch,
                        uint64_t key_left, ff_error *err)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h, nmoved, nnear = 0, near_cap = 0, nrim = 0;
    size_t rim_cap = 0, counts[3], k;
    uint32_t *near = NULL, *rim = NULL, *cleared = malloc(nch * sizeof *cleared);
    const uint32_t *lists[3];
    const double *old_dist = f->distance;
    const uint8_t *old_dir = f->direction;
    int old_flat = f->flat, affected = 1;
    uint64_t from = ff_profile_pending(f) ? f->next_id : f->id; /* (for the id's trees) */
    ff_repair_stats rs;
    ff_status st;

    if (!cleared)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for a repair");
    for (k = 0; k < nch; k++)
        cleared[k] = ch[k].cell;
    lists[0] = cleared;
    counts[0] = nch;
    if ((st = dilate(p, lists, counts, 1, 1, &rim, &nrim, &rim_cap, err)) != FF_OK ||
        (st = ff_field_cache_begin(f, key_left, err)) != FF_OK)
        goto done;
    /* The latest field's values before the change: the published ones,
     * but where a field awaiting publication, changed in place, differs
     * from them (those kept now). */
    if (ff_profile_pending(f) &&
        (st = ff_field_cache_keep(f, f->differ_all ? NULL : f->differ, f->ndiffer,
                                  f->next_distance, f->next_direction, n, err)) != FF_OK)
        goto done;
    ff_profile_latest_to_next(f, n);
    if ((st = ff_field_cache_keep(f, rim, nrim, old_dist, old_dir, n, err)) != FF_OK ||
        (st = ff_repair_field(&f->repair, &f->grid, f->next_distance, ch, nch, &rs, err)) != FF_OK ||
        (st = ff_repair_directions(&f->repair, &f->grid, f->next_distance, f->next_direction,
                                   &f->flat, err)) != FF_OK)
        goto done;
    if (rs.rebuilt || old_flat || f->flat) {
        /* Searched whole, or directions picked whole: any cell may have
         * changed. */
        if ((st = ff_field_cache_keep(f, NULL, 0, old_dist, old_dir, n, err)) != FF_OK)
            goto done;
        ff_profile_differ(f, NULL, 0, n);
    }
    update_step_masks(f, rim, nrim);
    if (rs.rebuilt) {
        /* The repair searched the whole map: so must the lead-out. */
        memset(f->lead_layer, 0, n);
        if ((st = ff_lead_out(p, f, NULL, 0, f->next_direction, f->next_distance, &affected,
                              err)) != FF_OK)
            goto done;
        ff_profile_finish(p, f);
        goto done;
    }
    lists[0] = p->changed;
    counts[0] = p->nchanged;
    lists[1] = cleared;
    counts[1] = nch;
    lists[2] = ff_repair_moved(&f->repair, &nmoved);
    counts[2] = nmoved;
    if ((st = dilate(p, lists, counts, 3, FF_LEAD_OUT_LAYERS + 1, &near, &nnear, &near_cap,
                     err)) != FF_OK ||
        (st = lead_out_near(p, f, near, nnear, old_dist, old_dir, &affected, err)) != FF_OK)
        goto done;
    /* The costs changed at the cleared changes, the directions within
     * near, but everywhere with a zero-cost tie (ff_repair_directions). */
    if (!old_flat && !f->flat)
        ff_profile_tell_trees(f, from, cleared, nch, near, nnear);
    ff_profile_finish(p, f);
done:
    free(near);
    free(rim);
    free(cleared);
    return st;
}

/* The profile after the map changed, by 'rebuild repair': the clearance's
 * changes found near the changed cells; none, and only the lead-out near
 * them may change; else the field taken from the cache when it holds the
 * map's new state, or repaired (the state left kept in the cache).  A
 * change of goals, or of most of the map, is built whole.  *affected
 * says whether the field changed, *cached whether it came from the
 * cache. */
ff_status ff_profile_rebuild_repair(ff_profiles *p, ff_profile *f, uint64_t key_left,
                                    int *affected, int *cached, ff_error *err)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h, nch = 0;
    ff_cell_change *ch = NULL;
    ff_status st;

    *affected = *cached = 0;
    if ((st = cleared_changes(p, f, &ch, &nch, err)) != FF_OK)
        goto done;
    if (whole_change(p, f, ch, nch)) {
        size_t nwhole;
        int goal;
        ff_field_cache_drop(&f->cache);
        st = build_whole(p, f, affected, &nwhole, &goal, err);
    } else if (nch > 0 && f->cache.valid && f->cache.map_key == p->map_key) {
        ff_profile_latest_to_next(f, n);
        ff_field_cache_take(f, key_left, n);
        p->cache_hits++;
        p->builds++;
        p->build_bytes += n * (sizeof *f->next_distance + sizeof *f->next_direction);
        if (f->astar.grid)
            ff_astar_retarget(&f->astar);
        *affected = *cached = 1;
    } else if (nch > 0) {
        *affected = 1;
        st = repair(p, f, ch, nch, key_left, err);
    } else
        st = lead_out_only(p, f, affected, err);
done:
    free(ch);
    return st;
}
