/* crowdview.c - the crowd as a caller sees it: made and freed whole, and
 * read agent by agent; see crowd.h. */
#include <stdlib.h>

#include "crowd.h"
#include "crowdint.h"
#include "standoff.h"

/* A crowd of its own memory for scenario s: with profiles p
 * (ff_crowd_init_profiles), or without, following dir on g
 * (ff_crowd_init); NULL on failure. */
static ff_crowd *make(const ff_scenario *s, const ff_grid *g, const uint8_t *dir, ff_profiles *p,
                      int smooth, ff_error *err)
{
    ff_crowd *c = malloc(sizeof *c);
    ff_status st;

    if (!c) {
        ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu agents", s->nagents);
        return NULL;
    }
    st = p ? ff_crowd_init_profiles(c, s, p, smooth, err) : ff_crowd_init(c, s, g, dir, smooth, err);
    if (st == FF_OK)
        return c;
    free(c);
    return NULL;
}

ff_crowd *ff_crowd_new(const ff_scenario *s, ff_profiles *p, int smooth, ff_error *err)
{
    return make(s, NULL, NULL, p, smooth, err);
}

ff_crowd *ff_crowd_new_field(const ff_scenario *s, const ff_grid *g, const uint8_t *dir,
                             int smooth, ff_error *err)
{
    return make(s, g, dir, NULL, smooth, err);
}

void ff_crowd_follow_vectors(ff_crowd *c, const float *vec)
{
    if (!c->profiles)
        c->vectors = vec;
}

void ff_crowd_delete(ff_crowd *c)
{
    if (!c)
        return;
    ff_crowd_free(c);
    free(c);
}

size_t ff_crowd_agent_count(const ff_crowd *c)
{
    return c->nagents;
}

void ff_crowd_agent(const ff_crowd *c, size_t k, ff_agent_view *v)
{
    const ff_agent *a = &c->agent[k];

    v->x = a->x;
    v->y = a->y;
    v->vx = a->vx;
    v->vy = a->vy;
    v->hx = a->hx;
    v->hy = a->hy;
    v->id = a->id;
    v->cls = a->cls;
    v->state = a->state;
    v->spawn_tick = a->spawn_tick;
    v->arrival_tick = a->arrival_tick;
}

long long ff_crowd_tick(const ff_crowd *c)
{
    return c->tick;
}

size_t ff_crowd_unreachable(const ff_crowd *c, size_t cls, uint32_t *first_id)
{
    if (first_id && c->class_unreachable[cls])
        *first_id = c->class_first_unreachable[cls];
    return c->class_unreachable[cls];
}

const uint32_t *ff_crowd_stuck(const ff_crowd *c, size_t *n)
{
    return ff_standoff_stuck(c, n);
}

size_t ff_crowd_deadlock_count(const ff_crowd *c)
{
    return c->ndeadlocks;
}

const uint32_t *ff_crowd_deadlock(const ff_crowd *c, size_t k, size_t *n)
{
    *n = c->deadlock_start[k + 1] - c->deadlock_start[k];
    return &c->deadlock_id[c->deadlock_start[k]];
}
