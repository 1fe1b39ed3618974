/* fieldbuild.c - a profile's grid and field built whole, and its id; see
 * profilesint.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "direction.h"
#include "fielddata.h"
#include "hash.h"
#include "profilesint.h"
#include "search.h"
#include "turn.h"

/* The profile's goals: those of a goal change (goal_set), of its class,
 * or the map's; *n of them. */
const uint32_t *ff_profile_goal_list(const ff_profiles *p, const ff_profile *f, size_t *n)
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

ff_status ff_profile_grid_goals(ff_profiles *p, ff_profile *f, size_t *open_goals, ff_error *err)
{
    size_t k, n = 0, m;
    const uint32_t *list = ff_profile_goal_list(p, f, &m);

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
ff_status ff_profile_grid(ff_profiles *p, ff_profile *f, size_t *open_goals, ff_error *err)
{
    ff_status st;

    ff_grid_free(&f->grid);
    if ((st = ff_grid_copy(&f->grid, &p->map, err)) != FF_OK)
        return st;
    if ((st = ff_grid_apply_clearance(&f->grid, f->radius, err)) != FF_OK)
        return st;
    return ff_profile_grid_goals(p, f, open_goals, err);
}

void ff_profile_tell_trees(ff_profile *f, uint64_t from, const uint32_t *cost_cells,
                           size_t ncost, const uint32_t *dir_cells, size_t ndir)
{
    if (from != f->trees_id)
        return;
    ff_grid_trees_touch(&f->grid_trees, cost_cells, ncost);
    ff_tilehash_touch(&f->direction_tree, dir_cells, ndir);
    f->trees_told = 1;
}

uint64_t ff_profile_field_id(ff_profile *f, size_t n)
{
    ff_plane dir;
    ff_hash h;
    uint64_t id;

    if (!f->trees_told) {
        ff_grid_trees_touch_all(&f->grid_trees);
        ff_tilehash_touch_all(&f->direction_tree);
    }
    f->trees_told = 0;
    ff_hash_init(&h);
    ff_hash_u64(&h, ff_grid_id_kept(&f->grid, &f->grid_trees));
    ff_hash_f64s(&h, &f->radius, 1);
    if (n) {
        dir.values = f->next_direction;
        dir.w = f->grid.w;
        dir.h = f->grid.h;
        dir.elem_size = 1;
        dir.lanes = 1;
        ff_hash_u64(&h, ff_tilehash_hash(&f->direction_tree, &dir));
    }
    id = ff_hash_final(&h);
    /* (Without directions the tree is not of this field.) */
    f->trees_id = n ? id : 0;
    return id;
}

/* What every new field of a profile ends with: its count, size and id,
 * and the own-path search told of the new grid. */
void ff_profile_finish(ff_profiles *p, ff_profile *f)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h;

    if (f->astar.grid)
        ff_astar_retarget(&f->astar);
    f->next_id = ff_profile_field_id(f, n);
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
 * ff_profile_grid, goals of them open), whole, into next_*. */
ff_status ff_profile_build_field(ff_profiles *p, ff_profile *f, size_t goals, ff_error *err)
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
    ff_lead_layers(p, f, NULL, n, f->next_direction, f->next_distance);
    if (p->turn)
        heading_planes(p, f, goals > 0);
    ff_profile_finish(p, f);
    return FF_OK;
}

/* Clearance, search, directions and lead-out of the profile, whole, into
 * next_*. */
ff_status ff_profile_build(ff_profiles *p, ff_profile *f, ff_error *err)
{
    size_t goals = 0;
    ff_status st;

    if ((st = ff_profile_grid(p, f, &goals, err)) != FF_OK)
        return st;
    return ff_profile_build_field(p, f, goals, err);
}

/* The arrays of profile f's field on n cells (see ff_profile.built).
 * FF_ENOMEM. */
ff_status ff_profile_field_arrays(ff_profile *f, size_t n, ff_error *err)
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
ff_status ff_profile_build_late(ff_profiles *p, ff_profile *f, ff_error *err)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h;
    ff_status st;

    if ((st = ff_profile_field_arrays(f, n, err)) != FF_OK ||
        (st = ff_profile_build_field(p, f, f->grid.ngoals, err)) != FF_OK)
        return st;
    f->unbuilt_id = f->id;
    ff_profile_publish(f, f->published_tick);  /* (as it was at the start: published then) */
    f->late_id = f->id;
    return FF_OK;
}
