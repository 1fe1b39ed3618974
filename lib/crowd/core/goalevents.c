/* goalevents.c - the crowd's side of goal changes at run time (man 1
 * ffsim, "GOAL CHANGES"); see crowdint.h.  The fields' side is
 * fields/goalchange.c. */
#include "crowdint.h"

/* Agent i, standing arrived where it is no longer at its goal, goes on
 * (counted off its goal, as one pushed off it). */
static void go_on(ff_crowd *c, size_t i)
{
    ff_agent *a = &c->agent[i];

    if (a->state == FF_AGENT_ARRIVED && !ff_agent_at_goal(c, i, a->cls, a->x, a->y)) {
        a->state = FF_AGENT_MOVING;
        c->on_goal--;
    }
}

/* Agent change e at tick t: the agent's own goal field (a new one, or
 * the one it had, kept with its profile's field: a hit when built for
 * it already), the field built now when the agent is present. */
static ff_status agent_goal(ff_crowd *c, const ff_goal_event *e, long long t, ff_error *err)
{
    size_t i = (size_t)e->agent;
    const ff_agent *a = &c->agent[i];
    uint32_t index;
    ff_status st;

    if ((st = ff_goalfields_find(&c->goals, c->profiles->class_profile[e->cls], e->cell[0],
                                 &index, err)) != FF_OK)
        return st;
    c->agent_goal[i] = index;
    c->own_goal_changes++;
    ff_ownpath_drop(&c->plan[i]);
    ff_profiles_fields_changed(c->profiles, t);
    if (a->state == FF_AGENT_UNBORN || a->state == FF_AGENT_GONE)
        return FF_OK;  /* (an unborn one's is made on entering) */
    if (ff_goalfields_direction(&c->goals, c->profiles, index))
        c->own_goal_hits++;
    else if ((st = ff_goalfields_ensure(&c->goals, c->profiles, index, err)) != FF_OK)
        return st;
    go_on(c, i);
    return FF_OK;
}

ff_status ff_crowd_goal_events(ff_crowd *c, long long t, ff_error *err)
{
    const ff_scenario *s = c->scenario;
    ff_status st;
    size_t i;

    if (ff_goalchanges_due(&c->goalchanges, c->profiles, t))
        ff_profiles_fields_changed(c->profiles, t);
    for (; c->next_goal_event < s->ngoal_events &&
           s->goal_event[c->next_goal_event].tick <= t; c->next_goal_event++) {
        const ff_goal_event *e = &s->goal_event[c->next_goal_event];
        if (e->tick < t)
            continue;  /* (before the first tick asked for) */
        if (e->agent >= 0) {
            if ((st = agent_goal(c, e, t, err)) != FF_OK)
                return st;
            continue;
        }
        if ((st = ff_goalchanges_class(&c->goalchanges, c->profiles, e, t, err)) != FF_OK)
            return st;
        ff_goal_box_cells(c, e->cls, e->cell, (size_t)e->ncells);
        for (i = 0; i < c->nagents; i++)
            if (c->agent[i].cls == e->cls && !own_goal(c, i))
                go_on(c, i);
    }
    return FF_OK;
}
