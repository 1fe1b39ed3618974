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

/* The profile after the map changed, by 'rebuild full': the clearance
 * whole; if the profile's grid changed, the field whole; else only its
 * lead-out may have, made whole again.  *affected says whether the field
 * changed. */
ff_status ff_profile_rebuild_full(ff_profiles *p, ff_profile *f, int *affected, ff_error *err)
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
    if (old.ngoals != f->grid.ngoals ||
        (old.ngoals && memcmp(old.goals, f->grid.goals, old.ngoals * sizeof *old.goals) != 0) ||
        memcmp(old.cost, f->grid.cost, n * sizeof *old.cost) != 0) {
        ff_grid_free(&old);
        *affected = 1;
        return ff_profile_build_field(p, f, goals, err);
    }
    ff_grid_free(&old);
    ff_profile_latest_to_next(f, n);
    if ((st = ff_lead_out(p, f, NULL, 0, f->next_direction, f->next_distance, affected, err)) !=
        FF_OK)
        return st;
    if (*affected)
        ff_profile_finish(p, f);
    return FF_OK;
}

/* The profile after the map changed, by 'rebuild repair': the clearance's
 * changes found near the changed cells; none, and only the lead-out near
 * them may change; else the field taken from the cache when it holds the
 * map's new state, or repaired (the state left kept in the cache).  A
 * change of goals is built whole.  *affected says whether the field
 * changed. */
ff_status ff_profile_rebuild_repair(ff_profiles *p, ff_profile *f, uint64_t key_left, int *affected,
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
    /* The latest field before the repair, for its id's trees. */
    uint64_t from = ff_profile_pending(f) ? f->next_id : f->id;
    int was_flat = f->flat;

    *affected = 0;
    if ((st = ff_repair_cleared_changes(&f->repair, &p->map, f->radius, &f->grid, p->changed,
                                        p->nchanged, &ch, &nch, &cap, err)) != FF_OK)
        goto done;
    if (goals_touched(p, f, ch, nch)) {
        *affected = 1;
        st = ff_profile_build(p, f, err);
        goto done;
    }
    if (nch > 0 && f->cache.valid && f->cache.map_key == p->map_key) {
        ff_field_cache_take(f, key_left, n);
        p->cache_hits++;
        p->builds++;
        p->build_bytes += n * (sizeof *f->next_distance + sizeof *f->next_direction);
        if (f->astar.grid)
            ff_astar_retarget(&f->astar);
        *affected = 1;
        goto done;
    }
    if (nch > 0 && (st = ff_field_cache_store(f, key_left, n, err)) != FF_OK)
        goto done;
    if (nch > 0)
        ff_profile_latest_to_next(f, n);
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
            if ((st = ff_lead_out(p, f, NULL, 0, f->next_direction, f->next_distance, affected,
                               err)) != FF_OK)
                goto done;
            *affected = 1;
            ff_grid_step_masks(&f->grid, f->step_mask);
            ff_profile_finish(p, f);
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
    if ((st = dilate(p, lists, counts, 3, FF_LEAD_OUT_LAYERS + 1, &near, &nnear, &near_cap, err)) !=
        FF_OK)
        goto done;
    if (nch == 0) {
        /* Only the lead-out can change: look before copying anything. */
        for (k = 0; k < nnear && !f->lead_layer[near[k]] && !ff_led_out_cell(p, f, near[k]); k++)
            ;
        if (k == nnear)
            goto done;
        ff_profile_latest_to_next(f, n);
    }
    {
        int lead_changed;
        if ((st = ff_lead_out(p, f, near, nnear, f->next_direction, f->next_distance, &lead_changed,
                           err)) != FF_OK)
            goto done;
        *affected |= lead_changed;
    }
    /* The costs changed at the cleared changes, the directions within
     * near, but everywhere with a zero-cost tie (ff_repair_directions). */
    if (*affected && (nch == 0 || (!was_flat && !f->flat)))
        ff_profile_tell_trees(f, from, cleared, nch, near, nnear);
    if (*affected)
        ff_profile_finish(p, f);
done:
    free(ch);
    free(near);
    free(rim);
    free(cleared);
    return st;
}
