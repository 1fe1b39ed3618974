/* arrival.c - where agents arrive: each class's goal box, the arrival
 * test (within the arrival distance of a goal cell's center, man 5
 * ffsim), the goal cell an agent arrived at, and the arrival itself
 * (its counts, and whether it stays or leaves); see crowdint.h. */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "crowdint.h"

static void world_box(ff_crowd *c, size_t k);

/* Each class's bounding box of its goal cells, and the box widened by a
 * cell in world units (a goal change sets its class's again:
 * ff_goal_box_cells). */
void ff_goal_boxes_init(ff_crowd *c, size_t nclasses)
{
    const ff_grid *g = c->grid;
    size_t n = (size_t)g->w * (size_t)g->h, k, m;

    for (k = 0; k < nclasses; k++) {
        const uint8_t *mask = goal_mask(c, (int32_t)k);
        long long *box = &c->goal_box[4 * k];
        for (m = 0; m < k; m++)
            if (goal_mask(c, (int32_t)m) == mask)
                break;
        if (m < k) {
            memcpy(box, &c->goal_box[4 * m], 4 * sizeof *box);
            continue;
        }
        box[0] = box[1] = LLONG_MAX;
        box[2] = box[3] = -1;
        for (m = 0; m < n; m++)
            if (mask[m]) {
                long long x = (long long)(m % (size_t)g->w), y = (long long)(m / (size_t)g->w);
                if (x < box[0]) box[0] = x;
                if (y < box[1]) box[1] = y;
                if (x > box[2]) box[2] = x;
                if (y > box[3]) box[3] = y;
            }
    }
    for (k = 0; k < nclasses; k++)
        world_box(c, k);
}

/* Class k's goal box widened by a cell, in world units: a cell wider
 * than the range at_goal scans. */
static void world_box(ff_crowd *c, size_t k)
{
    const ff_grid *g = c->grid;
    const long long *box = &c->goal_box[4 * k];
    double *world = &c->goal_world[4 * k];

    world[0] = g->origin_x + ((double)box[0] - 1) * g->cell_size;
    world[1] = g->origin_y + ((double)box[1] - 1) * g->cell_size;
    world[2] = g->origin_x + ((double)box[2] + 2) * g->cell_size;
    world[3] = g->origin_y + ((double)box[3] + 2) * g->cell_size;
}

void ff_goal_box_cells(ff_crowd *c, int32_t cls, const uint32_t *cells, size_t n)
{
    long long *box = &c->goal_box[4 * cls];
    size_t k;

    box[0] = box[1] = LLONG_MAX;
    box[2] = box[3] = -1;
    for (k = 0; k < n; k++) {
        long long x = (long long)(cells[k] % (uint32_t)c->grid->w);
        long long y = (long long)(cells[k] / (uint32_t)c->grid->w);
        if (x < box[0]) box[0] = x;
        if (y < box[1]) box[1] = y;
        if (x > box[2]) box[2] = x;
        if (y > box[3]) box[3] = y;
    }
    world_box(c, (size_t)cls);
}

int ff_class_at_goal(const ff_crowd *c, int32_t cls, double x, double y)
{
    const ff_grid *g = c->grid;
    const long long *box = &c->goal_box[4 * cls];
    const uint8_t *goal = goal_mask(c, cls);
    double r = c->scenario->arrive, cs = g->cell_size;
    long long x0, x1, y0, y1, i, j;

    x0 = (long long)floor_fast((x - r - g->origin_x) / cs);
    x1 = (long long)floor_fast((x + r - g->origin_x) / cs);
    y0 = (long long)floor_fast((y - r - g->origin_y) / cs);
    y1 = (long long)floor_fast((y + r - g->origin_y) / cs);

    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 >= g->w) x1 = g->w - 1;
    if (y1 >= g->h) y1 = g->h - 1;
    if (x1 < box[0] || x0 > box[2] || y1 < box[1] || y0 > box[3])
        return 0;  /* no goal cell in the range: the mask need not be read */
    for (j = y0; j <= y1; j++)
        for (i = x0; i <= x1; i++) {
            double dx, dy;
            if (!goal[(size_t)j * (size_t)g->w + (size_t)i])
                continue;
            dx = g->origin_x + ((double)i + 0.5) * cs - x;
            dy = g->origin_y + ((double)j + 0.5) * cs - y;
            if (dx * dx + dy * dy <= r * r)
                return 1;
        }
    return 0;
}

/* The goal cell of class cls nearest to (x, y) (the first in row-major
 * order of the nearest): the one an agent arriving there arrived at. */
static uint32_t arrival_goal(const ff_crowd *c, int32_t cls, double x, double y)
{
    const ff_grid *g = c->grid;
    const uint8_t *goal = goal_mask(c, cls);
    const long long *box = &c->goal_box[4 * cls];
    double best = INFINITY, cs = g->cell_size;
    uint32_t cell = 0;
    long long i, j;

    /* The class's goals all lie in its box: a scan of it is short beside
     * an arrival, which happens once an agent. */
    for (j = box[1]; j <= box[3]; j++)
        for (i = box[0]; i <= box[2]; i++) {
            double dx, dy;
            if (!goal[(size_t)j * (size_t)g->w + (size_t)i])
                continue;
            dx = g->origin_x + ((double)i + 0.5) * cs - x;
            dy = g->origin_y + ((double)j + 0.5) * cs - y;
            if (dx * dx + dy * dy < best) {
                best = dx * dx + dy * dy;
                cell = (uint32_t)((size_t)j * (size_t)g->w + (size_t)i);
            }
        }
    return cell;
}

/* An agent arrives at tick t: it leaves, or stays as an obstacle. */
void ff_agent_arrive(ff_crowd *c, size_t i, long long t, int *changed)
{
    ff_agent *a = &c->agent[i];
    a->arrival_tick = t;
    if (++c->on_goal == c->nagents && c->makespan < 0)
        c->makespan = t;
    {
        uint32_t cell = own_goal(c, i) ? c->goals.field[c->agent_goal[i]].goal
                                       : arrival_goal(c, a->cls, a->x, a->y);
        long group = ff_goal_group_of(&c->goal_groups, cell);
        if (group >= 0)
            c->group_arrived[group]++;
    }
    c->stats.arrived++;
    if (c->scenario->stay) {
        a->state = FF_AGENT_ARRIVED;
        a->vx = a->vy = 0;
        a->clear = 0;
    } else {
        a->state = FF_AGENT_GONE;
        *changed = 1;
    }
}
