/* goalchange.c - a class's goal changes and their field cache; see
 * goalchange.h. */
#include "goalchange.h"

#include <stdlib.h>
#include <string.h>

void ff_goalchanges_init(ff_goalchanges *g)
{
    memset(g, 0, sizeof *g);
}

static void slot_free(ff_goal_cached *c)
{
    free(c->distance);
    free(c->direction);
    free(c->lead_layer);
    free(c->heading_direction);
    memset(c, 0, sizeof *c);
    c->profile = -1;
}

void ff_goalchanges_free(ff_goalchanges *g)
{
    size_t k;
    for (k = 0; k < g->nslots; k++)
        slot_free(&g->slot[k]);
    free(g->slot);
    free(g->publish);
    memset(g, 0, sizeof *g);
}

/* Profile k's slots. */
static ff_goal_cached *slots_of(ff_goalchanges *g, size_t k)
{
    return &g->slot[k * FF_GOAL_CACHE_FIELDS];
}

/* The slot of profile k holding key (map_key, version), or NULL. */
static ff_goal_cached *find(ff_goalchanges *g, size_t k, uint64_t map_key, uint32_t version)
{
    ff_goal_cached *s = slots_of(g, k);
    int j;

    for (j = 0; j < FF_GOAL_CACHE_FIELDS; j++)
        if (s[j].profile == (int32_t)k && s[j].map_key == map_key &&
            s[j].goal_version == version)
            return &s[j];
    return NULL;
}

/* Keep profile f's (index k) latest field, the one awaiting publication
 * if any, under its key, in the slot used longest ago unless one holds
 * it already.  FF_ENOMEM. */
static ff_status store(ff_goalchanges *g, const ff_profiles *p, size_t k, ff_error *err)
{
    const ff_profile *f = &p->profile[k];
    size_t n = (size_t)p->map.w * (size_t)p->map.h;
    int pending = f->publish_tick >= 0, j;
    ff_goal_cached *s = slots_of(g, k), *c = find(g, k, p->map_key, f->goal_version);

    if (c) {
        c->used = ++g->uses;
        return FF_OK;
    }
    for (c = &s[0], j = 1; j < FF_GOAL_CACHE_FIELDS; j++)
        if (s[j].used < c->used)
            c = &s[j];
    if (!c->distance) {
        c->distance = malloc(n * sizeof *c->distance);
        c->direction = malloc(n);
        c->lead_layer = malloc(n);
        if (p->turn)
            c->heading_direction = malloc(8 * n);
        if (!c->distance || !c->direction || !c->lead_layer || (p->turn && !c->heading_direction)) {
            slot_free(c);
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the goal cache");
        }
    }
    memcpy(c->distance, pending ? f->next_distance : f->distance, n * sizeof *c->distance);
    memcpy(c->direction, pending ? f->next_direction : f->direction, n);
    memcpy(c->lead_layer, f->lead_layer, n);
    if (p->turn)
        memcpy(c->heading_direction,
               pending ? f->next_heading_direction : f->heading_direction, 8 * n);
    c->id = pending ? f->next_id : f->id;
    c->flat = f->flat;
    c->profile = (int32_t)k;
    c->map_key = p->map_key;
    c->goal_version = f->goal_version;
    c->used = ++g->uses;
    return FF_OK;
}

ff_status ff_goalchanges_class(ff_goalchanges *g, ff_profiles *p, const ff_goal_event *e,
                               long long t, ff_error *err)
{
    const ff_scenario *s = p->scenario;
    size_t k = (size_t)p->class_profile[e->cls], j;
    ff_profile *f = &p->profile[k];
    ff_goal_cached *hit;
    ff_status st;

    g->changes++;
    if (!f->built)  /* nobody follows it: its goals only */
        return ff_profiles_set_goals(p, k, e->cell, (size_t)e->ncells, e->version, 0, t, err);
    if (!g->slot) {
        g->slot = calloc(p->nprofiles * FF_GOAL_CACHE_FIELDS, sizeof *g->slot);
        g->publish = malloc(p->nprofiles * sizeof *g->publish);
        if (!g->slot || !g->publish) {
            free(g->slot);
            free(g->publish);
            g->slot = NULL;
            g->publish = NULL;
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the goal cache");
        }
        g->nslots = p->nprofiles * FF_GOAL_CACHE_FIELDS;
        for (j = 0; j < g->nslots; j++)
            g->slot[j].profile = -1;
        for (j = 0; j < p->nprofiles; j++)
            g->publish[j] = -1;
    }
    if ((st = store(g, p, k, err)) != FF_OK)
        return st;
    hit = find(g, k, p->map_key, e->version);
    if ((st = ff_profiles_set_goals(p, k, e->cell, (size_t)e->ncells, e->version, !hit, t,
                                    err)) != FF_OK)
        return st;
    if (hit) {
        ff_profiles_take_field(p, k, hit->distance, hit->direction, hit->lead_layer,
                               hit->heading_direction, hit->id, hit->flat);
        hit->used = ++g->uses;
        g->cache_hits++;
        ff_profiles_schedule(p, k, t, t, 0);
    } else {
        ff_profiles_schedule(p, k, t, t + s->rebuild_ticks, s->goal_change_stop);
        g->publish[k] = t + s->rebuild_ticks;
    }
    return FF_OK;
}

int ff_goalchanges_due(const ff_goalchanges *g, const ff_profiles *p, long long t)
{
    size_t k;

    for (k = 0; g->publish && k < p->nprofiles; k++)
        if (g->publish[k] == t && p->profile[k].published_tick == t)
            return 1;
    return 0;
}
