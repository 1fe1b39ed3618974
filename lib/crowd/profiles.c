/* profiles.c - per-radius fields and their rebuilds; see profiles.h. */
#define _POSIX_C_SOURCE 200809L
#include "profiles.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "direction.h"
#include "hash.h"
#include "search.h"
#include "stream.h"

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The profile's grid from the current map: its clearance, then only the
 * goals left open.  0 when no goal is left. */
static ff_status make_grid(ff_profiles *p, ff_profile *f, size_t *open_goals, ff_error *err)
{
    ff_status st;
    size_t k, n = 0;

    ff_grid_free(&f->grid);
    if ((st = ff_grid_copy(&f->grid, &p->map, err)) != FF_OK)
        return st;
    if ((st = ff_grid_apply_clearance(&f->grid, f->radius, err)) != FF_OK)
        return st;
    if (f->goal_class >= 0) {
        const ff_agent_class *c = &p->scenario->cls[f->goal_class];
        uint32_t *goals = realloc(f->grid.goals, (size_t)c->ngoals * sizeof *goals);
        if (!goals)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for goals");
        memcpy(goals, c->goal, (size_t)c->ngoals * sizeof *goals);
        f->grid.goals = goals;
        f->grid.ngoals = (size_t)c->ngoals;
    }
    for (k = 0; k < f->grid.ngoals; k++)
        if (ff_grid_open(&f->grid, f->grid.goals[k]))
            f->grid.goals[n++] = f->grid.goals[k];
    f->grid.ngoals = n;
    *open_goals = n;
    return FF_OK;
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
 * into rooms the profile cannot reach. */
#define LEAD_OUT_LAYERS 2

static void lead_out(ff_profiles *p, ff_profile *f)
{
    const ff_grid *m = &p->map;
    size_t n = (size_t)m->w * (size_t)m->h, i;
    uint8_t *dir = f->next_direction;
    double *dist = f->next_distance;
    int changed = 1, layer;

    /* Codes 16 + d mark the cells of the layer being made, so that a
     * layer only leads to earlier ones. */
    for (layer = 0; changed && layer < LEAD_OUT_LAYERS; layer++) {
        changed = 0;
        for (i = 0; i < n; i++) {
            int x = (int)(i % (size_t)m->w), y = (int)(i / (size_t)m->w), d, best = -1;
            double best_dist = INFINITY;
            if (dir[i] != FF_DIR_NONE || !ff_grid_open(m, i) || ff_grid_open(&f->grid, i))
                continue;
            for (d = 0; d < 8; d++) {
                size_t j;
                if (!ff_grid_step_ok(m, x, y, d))
                    continue;
                j = (size_t)(y + ff_dir_dy[d]) * (size_t)m->w + (size_t)(x + ff_dir_dx[d]);
                if (dir[j] == FF_DIR_NONE || dir[j] >= 16)
                    continue;
                if (best < 0 || dist[j] < best_dist) {
                    best = d;
                    best_dist = dist[j];
                }
            }
            if (best >= 0) {
                dir[i] = (uint8_t)(16 + best);
                dist[i] = best_dist + ff_grid_step_cost(m, i, best);
                changed = 1;
            }
        }
        for (i = 0; i < n; i++)
            if (dir[i] >= 16)
                dir[i] = (uint8_t)(dir[i] - 16);
    }
}

/* Search and directions of the profile's grid into next_*. */
static ff_status build(ff_profiles *p, ff_profile *f, ff_error *err)
{
    size_t n = (size_t)p->map.w * (size_t)p->map.h, goals = 0, k;
    double t0 = cpu_seconds();
    ff_hash h;
    ff_status st;

    if ((st = make_grid(p, f, &goals, err)) != FF_OK)
        return st;
    if (goals == 0) {
        for (k = 0; k < n; k++) {
            f->next_distance[k] = INFINITY;
            f->next_direction[k] = FF_DIR_NONE;
        }
    } else if ((st = ff_search(&f->grid, f->next_distance, err)) != FF_OK ||
               (st = ff_direction_field(&f->grid, f->next_distance, f->next_direction, err)) != FF_OK) {
        return st;
    }
    lead_out(p, f);
    ff_grid_step_masks(&f->grid, f->step_mask);
    if (f->astar.grid)
        ff_astar_retarget(&f->astar);
    ff_hash_init(&h);
    ff_hash_u64(&h, ff_grid_id(&f->grid));
    ff_hash_f64s(&h, &f->radius, 1);
    ff_hash_bytes(&h, f->next_direction, n);
    f->next_id = ff_hash_final(&h);
    p->builds++;
    p->build_bytes += n * (sizeof *f->next_distance + sizeof *f->next_direction);
    p->build_seconds += cpu_seconds() - t0;
    return FF_OK;
}

static void publish(ff_profile *f, long long t)
{
    double *d = f->distance;
    uint8_t *dir = f->direction;

    f->distance = f->next_distance;
    f->direction = f->next_direction;
    f->next_distance = d;
    f->next_direction = dir;
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

/* 1 when classes i and j can share a field: same radius, same goals. */
static int same_profile(const ff_scenario *s, size_t i, size_t j)
{
    const ff_agent_class *a = &s->cls[i], *b = &s->cls[j];
    return class_radius(s, i) == class_radius(s, j) && a->ngoals == b->ngoals &&
           memcmp(a->goal, b->goal, (size_t)a->ngoals * sizeof *a->goal) == 0;
}

static const ff_scenario *sort_scenario;

/* Profiles by radius, then by their first class. */
static int cmp_first_class(const void *pa, const void *pb)
{
    size_t i = *(const size_t *)pa, j = *(const size_t *)pb;
    double ri = class_radius(sort_scenario, i), rj = class_radius(sort_scenario, j);
    if (ri != rj)
        return ri < rj ? -1 : 1;
    return i < j ? -1 : i > j;
}

ff_status ff_profiles_init(ff_profiles *p, const ff_scenario *s, const ff_grid *stream,
                           const char *scen_name, ff_error *err)
{
    size_t n = (size_t)stream->w * (size_t)stream->h, k, j, m = 0;
    size_t *first = NULL;   /* per profile: its first class */
    ff_status st;

    memset(p, 0, sizeof *p);
    p->scenario = s;
    p->map_tick = -1;
    if ((st = ff_grid_copy(&p->base, stream, err)) != FF_OK ||
        (st = ff_grid_copy(&p->map, stream, err)) != FF_OK)
        goto failed;
    first = malloc((s->nclasses + 1) * sizeof *first);
    p->class_profile = calloc(s->nclasses + 1, sizeof *p->class_profile);
    if (!first || !p->class_profile)
        goto nomem;
    for (k = 0; k < s->nclasses; k++) {
        for (j = 0; j < m && !same_profile(s, first[j], k); j++)
            ;
        if (j == m)
            first[m++] = k;
    }
    if (m == 0)
        first[m++] = 0;  /* no classes: one field of the stream's goals */
    sort_scenario = s;
    qsort(first, m, sizeof *first, cmp_first_class);
    sort_scenario = NULL;
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
        f->distance = malloc(n * sizeof *f->distance);
        f->next_distance = malloc(n * sizeof *f->next_distance);
        f->direction = malloc(n);
        f->next_direction = malloc(n);
        f->goal_mask = calloc(n, 1);
        f->step_mask = malloc(n);
        if (!f->distance || !f->next_distance || !f->direction || !f->next_direction ||
            !f->goal_mask || !f->step_mask)
            goto nomem;
        if (f->goal_class >= 0)
            for (g = 0; g < (size_t)s->cls[f->goal_class].ngoals; g++)
                f->goal_mask[s->cls[f->goal_class].goal[g]] = 1;
        else
            for (g = 0; g < stream->ngoals; g++)
                f->goal_mask[stream->goals[g]] = 1;
        if ((st = build(p, f, err)) != FF_OK ||
            (st = ff_astar_init(&f->astar, &f->grid, err)) != FF_OK)
            goto failed;
        f->astar.step_mask = f->step_mask;
        publish(f, 0);
    }
    for (k = 0; k < s->nclasses; k++) {
        for (j = 0; j < m && !same_profile(s, first[j], k); j++)
            ;
        p->class_profile[k] = (int32_t)j;
        if (p->profile[j].grid.ngoals == 0) {
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
    }
    free(p->profile);
    free(p->class_profile);
    ff_grid_free(&p->base);
    ff_grid_free(&p->map);
    memset(p, 0, sizeof *p);
}

ff_status ff_profiles_tick(ff_profiles *p, long long t, int *map_changed, ff_error *err)
{
    const ff_scenario *s = p->scenario;
    size_t k;
    ff_status st;

    *map_changed = 0;
    for (; p->next_event < s->nevents && s->event[p->next_event].tick <= t; p->next_event++) {
        const ff_map_event *e = &s->event[p->next_event];
        int32_t x, y;
        if (e->tick < t)
            continue;  /* before the first tick asked for */
        for (y = e->y0; y <= e->y1; y++)
            for (x = e->x0; x <= e->x1; x++) {
                size_t i = (size_t)y * (size_t)p->map.w + (size_t)x;
                p->map.cost[i] = e->close ? INFINITY : p->base.cost[i];
            }
        *map_changed = 1;
    }
    if (*map_changed) {
        double t0 = p->build_seconds;
        p->map_tick = t;
        for (k = 0; k < p->nprofiles; k++) {
            ff_profile *f = &p->profile[k];
            if ((st = build(p, f, err)) != FF_OK)
                return st;
            f->stale = 1;
            /* One builder: the fields one after another, smallest
             * radius first, each taking rebuild-ticks. */
            f->publish_tick = t + (long long)(k + 1) * s->rebuild_ticks;
        }
        if (p->build_seconds - t0 > p->rebuild_seconds_max)
            p->rebuild_seconds_max = p->build_seconds - t0;
    }
    for (k = 0; k < p->nprofiles; k++)
        if (p->profile[k].publish_tick >= 0 && p->profile[k].publish_tick <= t)
            publish(&p->profile[k], t);
    return FF_OK;
}
