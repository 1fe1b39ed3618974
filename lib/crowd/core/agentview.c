/* agentview.c - an agent's view of its fields: the heading it enters
 * with, its own goal's field on entering, and the cost to goal its moves
 * are chosen by; see crowdint.h.  Below the steering and the grid moves,
 * which both ask it. */
#include <math.h>

#include "crowdint.h"
#include "sample.h"

void ff_agent_initial_heading(const ff_crowd *c, ff_agent *a, double heading_deg)
{
    double dx, dy;
    if (!isnan(heading_deg)) {
        a->hx = cos(heading_deg * PI / 180);
        a->hy = sin(heading_deg * PI / 180);
        return;
    }
    const uint8_t *dir = agent_dir_of(c, (size_t)(a - c->agent), a->cls);
    if (dir && ff_sample_smooth(c->grid, dir, a->x, a->y, &dx, &dy)) {
        a->hx = dx;
        a->hy = dy;
    } else {
        a->hx = 1;
        a->hy = 0;
    }
}

ff_status ff_agent_enter(ff_crowd *c, size_t i, ff_error *err)
{
    ff_agent *a = &c->agent[i];
    const uint8_t *d;
    long long cx, cy;
    ff_status st;

    if (!own_goal(c, i))
        return FF_OK;
    if ((st = ff_goalfields_ensure(&c->goals, c->profiles, c->agent_goal[i], err)) != FF_OK)
        return st;
    d = agent_dir_of(c, i, a->cls);
    if (d && ff_goalfields_lazy(&c->goals, c->agent_goal[i])) {
        /* What the heading below and the check after it read. */
        uint32_t cells[5];
        int k, m = ff_sample_smooth_reads(c->grid, a->x, a->y, cells);
        for (k = 0; k < m; k++)
            ff_goalfields_settle(&c->goals, c->profiles, c->agent_goal[i], cells[k]);
        if ((st = ff_goalfields_status(&c->goals, err)) != FF_OK)
            return st;
    }
    if (isnan(c->scenario->agent[i].heading))
        ff_agent_initial_heading(c, a, NAN);
    if (d && ff_world_to_cell(c->grid, a->x, a->y, &cx, &cy) &&
        d[(size_t)cy * (size_t)c->grid->w + (size_t)cx] == FF_DIR_NONE) {
        if (c->class_unreachable[a->cls]++ == 0)
            c->class_first_unreachable[a->cls] = a->id;
        c->unreachable++;
    }
    return FF_OK;
}

ff_cost_view ff_agent_cost(const ff_crowd *c, size_t i)
{
    return ff_agent_cost_dir(c, i, agent_dir_of(c, i, c->agent[i].cls));
}
