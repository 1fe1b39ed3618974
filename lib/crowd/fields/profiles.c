/* profiles.c - per-radius fields: the classes grouped into profiles,
 * their set-up and each tick's map events; see profiles.h, and
 * profilesint.h for its parts. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profilesint.h"
#include "turn.h"

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
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
            if ((st = ff_profile_field_arrays(f, n, err)) != FF_OK || (st = ff_profile_build(p, f, err)) != FF_OK)
                goto failed;
        } else {
            /* Nobody follows it: its grid and steps (own goals' fields
             * are built on them), its field only when a map event comes
             * (ff_profiles_tick). */
            if ((st = ff_profile_grid(p, f, &g, err)) != FF_OK)
                goto failed;
            ff_grid_step_masks(&f->grid, f->step_mask);
            f->next_id = ff_profile_field_id(f, 0);
        }
        if ((st = ff_astar_init(&f->astar, &f->grid, err)) != FF_OK)
            goto failed;
        p->build_seconds += cpu_seconds() - t0;
        f->astar.step_mask = f->step_mask;
        ff_profile_publish(f, 0);
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
        ff_field_cache_free(&f->cache);
        ff_grid_trees_free(&f->grid_trees);
        ff_tilehash_free(&f->direction_tree);
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
            if ((st = ff_profile_build_late(p, &p->profile[k], err)) != FF_OK)
                return st;
            p->late_tick = t;
        }
    if ((st = ff_map_events_apply(p, t, map_changed, err)) != FF_OK)
        return st;
    if (*map_changed)
        p->map_tick = t;
    if (p->nchanged > 0) {
        double spent;
        for (k = 0; k < p->nprofiles; k++) {
            ff_profile *f = &p->profile[k];
            int affected = 0;
            st = s->rebuild_full || p->turn ? ff_profile_rebuild_full(p, f, &affected, err)
                                 : ff_profile_rebuild_repair(p, f, key_left, &affected, err);
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
            ff_profile_publish(&p->profile[k], t);
    return FF_OK;
}

ff_status ff_profiles_set_goals(ff_profiles *p, size_t k, const uint32_t *goals, size_t n,
                                uint32_t version, int build, long long t, ff_error *err)
{
    ff_profile *f = &p->profile[k];
    size_t m, open;
    const uint32_t *old = ff_profile_goal_list(p, f, &m);
    ff_status st;

    while (m > 0)
        f->goal_mask[old[--m]] = 0;
    f->goal_set = goals;
    f->ngoal_set = n;
    f->goal_version = version;
    for (m = 0; m < n; m++)
        f->goal_mask[goals[m]] = 1;
    p->map_tick = t;
    f->cache.valid = 0;
    if ((st = ff_profile_grid_goals(p, f, &open, err)) != FF_OK)
        return st;
    if (build && f->built)
        return ff_profile_build_field(p, f, open, err);  /* (retargets own paths) */
    if (f->astar.grid)
        ff_astar_retarget(&f->astar);
    return FF_OK;
}

void ff_profiles_take_field(ff_profiles *p, size_t k, const double *distance,
                            const uint8_t *direction, const uint8_t *lead_layer,
                            const uint8_t *heading, uint64_t id, int flat)
{
    ff_profile *f = &p->profile[k];
    size_t n = (size_t)p->map.w * (size_t)p->map.h;

    memcpy(f->next_distance, distance, n * sizeof *distance);
    memcpy(f->next_direction, direction, n);
    memcpy(f->lead_layer, lead_layer, n);
    if (p->turn)
        memcpy(f->next_heading_direction, heading, 8 * n);
    f->next_id = id;
    f->flat = flat;
}

void ff_profiles_schedule(ff_profiles *p, size_t k, long long t, long long publish_tick,
                          int stale)
{
    ff_profile *f = &p->profile[k];

    if (publish_tick <= t) {
        ff_profile_publish(f, t);
        return;
    }
    f->publish_tick = publish_tick;
    f->stale |= stale;
}
