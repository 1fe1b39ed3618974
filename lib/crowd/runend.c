/* runend.c - the end of a run: the tick after which nothing can change
 * any more (see man 1 ffsim, "THE END OF A RUN"). */
#include "crowd.h"
#include "crowdint.h"
#include "lacam.h"
#include "standoff.h"

/* 1 when a spawn is still to come after tick t, or a map event or a goal
 * change while an agent is on the map: once every agent has left, the
 * events still to come can change nothing, and are not worth a repair
 * each. */
static int pending(const ff_crowd *c, long long t)
{
    const ff_scenario *s = c->scenario;
    size_t k;

    if (c->next_spawn < c->nagents)
        return 1;
    if (!(s->nevents > 0 && s->event[s->nevents - 1].tick > t) &&
        !(s->ngoal_events > 0 && s->goal_event[s->ngoal_events - 1].tick > t))
        return 0;
    for (k = 0; k < c->nagents; k++)
        if (c->agent[k].state != FF_AGENT_GONE)
            return 1;
    return 0;
}

int ff_crowd_check_over(ff_crowd *c)
{
    const ff_scenario *s = c->scenario;
    size_t k, stopped = 0, standoffs = 0;

    if (c->over)
        return c->over;
    if (c->tick < 1 || pending(c, c->tick))
        return 0;
    if (ff_lacam_proved(c))
        return c->over = FF_OVER_UNSOLVABLE;
    for (k = 0; k < c->nagents; k++) {
        const ff_agent *a = &c->agent[k];
        if (a->state == FF_AGENT_GONE || a->state == FF_AGENT_ARRIVED)
            continue;
        /* Steering standoffs (standoff.c): deadlocked for good, or stuck
         * in a jam that made no way for stuck-after seconds. */
        if (s->move != FF_MOVE_GRID &&
            (a->state == FF_AGENT_DEADLOCKED || (a->state == FF_AGENT_STUCK && ff_standoff_jammed(c, k)))) {
            standoffs++;
            continue;
        }
        /* Cell to cell, an agent whose cell has no way to its goal never
         * moves nor is moved (its every cell costs infinity); a steering
         * one may still be pushed. */
        if (s->move != FF_MOVE_GRID || a->state != FF_AGENT_STUCK)
            return 0;
        stopped++;
    }
    /* Steering agents that stay may still be pushed by the overlap
     * resolution: such a run goes on. */
    if (s->move != FF_MOVE_GRID && s->stay)
        return 0;
    c->over = standoffs ? FF_OVER_STANDOFF : stopped ? FF_OVER_STOPPED : FF_OVER_ARRIVED;
    return c->over;
}
