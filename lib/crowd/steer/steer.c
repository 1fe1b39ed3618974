/* steer.c - the steering of one agent: the behaviours (follow, separate,
 * avoid-walls, seek; the angular ones are angular.c's), their blend by
 * priority groups, the integration with speed, acceleration and turn
 * limits, wall sliding, and the escape from blocked cells; see crowd.h
 * and man 1 ffsim. */
#include <math.h>
#include <string.h>

#include "angular.h"
#include "blend.h"
#include "contact.h"
#include "direction.h"
#include "sample.h"
#include "standoff.h"
#include "steer.h"

/* The step is made twice, for classes with angular behaviours and
 * without (steer_step): the behaviours are inlined into both, or the
 * compiler calls them out of line in the common step too. */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))
#else
#define ALWAYS_INLINE inline
#define NOINLINE
#endif

/* ---- priority groups ---- */

/* A behaviour's proposal: its linear part in *px, *py, its angular part
 * returned (0 for the linear behaviours). */
typedef double (*propose_fn)(void *ctx, const ff_behaviour *b, double *px, double *py);

/* The one blending rule (blend.h, ff_crowd_blend); proposals are asked
 * for lazily, group by group, so a group that wins spares the others.
 * With ow NULL the angular parts are left out: a class without angular
 * behaviours, whose angular parts are all 0. */
static inline int blend_groups(const ff_agent_class *cls, propose_fn propose, void *ctx,
                               double *ox, double *oy, double *ow)
{
    double thr2 = cls->threshold * cls->threshold, sx = 0, sy = 0, sw = 0;
    int g, k;

    for (g = 0; g < cls->ngroups; g++) {
        sx = sy = sw = 0;
        for (k = cls->group_start[g]; k < cls->group_start[g + 1]; k++) {
            double px, py, pw = propose(ctx, &cls->behaviour[k], &px, &py);
            sx += cls->behaviour[k].weight * px;
            sy += cls->behaviour[k].weight * py;
            if (ow)
                sw += cls->behaviour[k].weight * pw;
        }
        if (sx * sx + sy * sy > thr2 || (ow && fabs(sw) > cls->threshold)) {
            *ox = sx;
            *oy = sy;
            if (ow)
                *ow = sw;
            return g;
        }
    }
    *ox = sx;
    *oy = sy;
    if (ow)
        *ow = sw;
    return -1;
}

typedef struct {
    const double *px, *py, *pw;
    const ff_behaviour *first;
} table_ctx;

static double propose_from_table(void *ctx, const ff_behaviour *b, double *px, double *py)
{
    const table_ctx *t = ctx;
    *px = t->px[b - t->first];
    *py = t->py[b - t->first];
    return t->pw ? t->pw[b - t->first] : 0;
}

int ff_crowd_blend(const ff_agent_class *cls, const double *px, const double *py, const double *pw,
                   double *ox, double *oy, double *ow)
{
    table_ctx t;
    double sw = 0;
    int g;
    t.px = px;
    t.py = py;
    t.pw = pw;
    t.first = cls->behaviour;
    g = blend_groups(cls, propose_from_table, &t, ox, oy, pw ? &sw : NULL);
    if (ow)
        *ow = sw;
    return g;
}

/* ---- behaviours ---- */

/* follow: the field's direction; inside a goal cell, toward its center. */
static ALWAYS_INLINE void propose_follow(const agent_ctx *q, double *px, double *py)
{
    const ff_crowd *c = q->c;
    const ff_grid *g = c->grid;
    size_t cell = (size_t)q->cy * (size_t)g->w + (size_t)q->cx;
    const long long *box = &c->goal_box[4 * q->a->cls];  /* outside: no goal */

    if (q->own) {
        double tx = q->tx - q->a->x, ty = q->ty - q->a->y, d = sqrt(tx * tx + ty * ty);
        *px = *py = 0;
        if (d > 1e-9 * g->cell_size) {
            *px = tx / d;
            *py = ty / d;
        }
        return;
    }
    if (own_goal(c, q->index) ? cell == c->goals.field[c->agent_goal[q->index]].goal
                              : q->cx >= box[0] && q->cx <= box[2] && q->cy >= box[1] && q->cy <= box[3] &&
                                    goal_mask(c, q->a->cls)[cell]) {
        double tx = g->origin_x + ((double)q->cx + 0.5) * g->cell_size - q->a->x;
        double ty = g->origin_y + ((double)q->cy + 0.5) * g->cell_size - q->a->y;
        double d = sqrt(tx * tx + ty * ty);
        *px = *py = 0;
        if (d > 1e-9 * g->cell_size) {
            *px = tx / d;
            *py = ty / d;
        }
        return;
    }
    if (c->vectors && c->smooth)
        ff_sample_smooth_vector(g, c->vectors, q->a->x, q->a->y, px, py);
    else if (c->vectors)
        ff_sample_raw_vector(g, c->vectors, q->a->x, q->a->y, px, py);
    else if (c->smooth && q->cells)
        ff_sample_smooth_cells(g, q->dir, q->a->x, q->a->y, q->fx, q->fy, px, py);
    else if (c->smooth)
        ff_sample_smooth(g, q->dir, q->a->x, q->a->y, px, py);
    else
        ff_sample_raw(g, q->dir, q->a->x, q->a->y, px, py);
}

/* separate: each neighbour nearer than the range R pushes away with
 * strength s = 1 - d/R, and one ahead also pushes to the agent's right
 * with strength s * a, where a is the cosine between the heading and the
 * direction to the neighbour, so that an agent meeting another head-on
 * steps aside rather than only backing off.
 * Longer sums are cut to length 1.  Neighbours are read from the hash:
 * where they stood at the start of the tick. */
static ALWAYS_INLINE void propose_separate(agent_ctx *q, double range, double *px, double *py)
{
    const ff_shash *h = &q->c->hash;
    const ff_agent *a = q->a;
    double sx = 0, sy = 0, len2, r2 = range * range, ax = a->x, ay = a->y;
    double c2 = q->cand_reach * q->cand_reach, reach2;
    int32_t bx0, bx1, by0, by1, bx, by, last;
    int collect = q->collect && !q->scanned && range >= q->cand_reach;

    if (!collect)
        c2 = -1;  /* no candidate passes */
    reach2 = r2 > c2 ? r2 : c2;
    q->scanned |= collect;
    bucket_box(h, a->x, a->y, range, q->e->bx, q->e->by, &bx0, &bx1, &by0, &by1);
    for (by = by0; by <= by1; by++)
        for (bx = bx0; bx <= bx1; bx = last + 1) {
            const ff_shash_entry *e, *end;
            ff_shash_row_run(h, bx, bx1, by, &last, &e, &end);
            uint32_t span = (uint32_t)last - (uint32_t)bx;
            for (; e < end; e++) {
                double dx = ax - e->x, dy = ay - e->y, d2 = dx * dx + dy * dy, d, s, ux, uy, ahead;
                /* Most entries are out of reach (strangers from other
                 * buckets are far): one test first.  An entry counts in
                 * its own bucket only. */
                if (d2 >= reach2 || e->by != by || (uint32_t)e->bx - (uint32_t)bx > span)
                    continue;
                if (e->item > q->index && d2 < c2)
                    ff_contacts_collect(q->collect, q->e, e);
                if (e->item == q->index || d2 >= r2)
                    continue;
                if (d2 > 0) {
                    d = sqrt(d2);
                    ux = dx / d;
                    uy = dy / d;
                } else {
                    d = 0;  /* coincident: the lower id goes west */
                    ux = e->item > q->index ? -1 : 1;
                    uy = 0;
                }
                s = 1 - d / range;
                sx += s * ux;
                sy += s * uy;
                ahead = -(ux * a->hx + uy * a->hy);
                if (ahead > 0) {
                    sx += s * ahead * -a->hy;
                    sy += s * ahead * a->hx;
                }
            }
        }
    len2 = sx * sx + sy * sy;
    if (len2 > 1) {
        len2 = sqrt(len2);
        sx /= len2;
        sy /= len2;
    }
    *px = sx;
    *py = sy;
}

/* The linear behaviours' proposals (angular parts 0). */
static ALWAYS_INLINE double propose(void *ctx, const ff_behaviour *b, double *px, double *py)
{
    agent_ctx *q = ctx;
    double dx, dy, d;

    switch (b->kind) {
    case FF_BEHAVE_FOLLOW:
        q->lookups++;
        propose_follow(q, px, py);
        return 0;
    case FF_BEHAVE_SEPARATE:
        propose_separate(q, b->range, px, py);
        return 0;
    case FF_BEHAVE_AVOID_WALLS:
        if (q->cells ? q->c->walls.near[q->cy * q->c->grid->w + q->cx] >
                           ff_walls_cells(&q->c->walls, q->cls->radius + b->range) + 1
                     : ff_walls_far(&q->c->walls, q->a->x, q->a->y, q->cls->radius + b->range)) {
            *px = *py = 0;  /* what the push gives there, without the call */
            return 0;
        }
        ff_walls_push(&q->c->walls, q->a->x, q->a->y, q->cls->radius, b->range, px, py);
        return 0;
    case FF_BEHAVE_SEEK:
        dx = b->target_x - q->a->x;
        dy = b->target_y - q->a->y;
        d = sqrt(dx * dx + dy * dy);
        *px = *py = 0;
        if (d > 1e-9) {
            *px = dx / d;
            *py = dy / d;
        }
        return 0;
    default:
        break;
    }
    *px = *py = 0;
    return 0;
}

/* Every behaviour's proposal, the angular ones too (angular.c). */
static double propose_turning(void *ctx, const ff_behaviour *b, double *px, double *py)
{
    const agent_ctx *q = ctx;

    if (b->kind < FF_BEHAVE_FACE)
        return propose(ctx, b, px, py);
    *px = *py = 0;
    return ff_angular_propose(q->c, q->index, q->e, b);
}

/* The blend of agent q->index, of a class with angular behaviours, and
 * its turn of the tick (angular.c): the linear part in *ox, *oy, the
 * winning group returned. */
static inline int blend_and_turn(ff_crowd *c, const ff_agent_class *cls, agent_ctx *q, double *ox,
                                   double *oy)
{
    double sw;
    int g = blend_groups(cls, propose_turning, q, ox, oy, &sw);

    ff_angular_turn(c, q->index, sw);
    return g;
}

/* ---- one agent's step ---- */

/* Turn the heading toward (vx, vy) by at most the class's turn of a tick;
 * a reversal turns clockwise (toward +y from +x). */
static inline void turn_heading(ff_agent *a, double vx, double vy, double cmax, double smax)
{
    double len = sqrt(vx * vx + vy * vy), ux, uy, dot, cross, hx, hy, s, n;

    if (!(len > 1e-12))
        return;
    ux = vx / len;
    uy = vy / len;
    dot = a->hx * ux + a->hy * uy;
    cross = a->hx * uy - a->hy * ux;
    if (dot >= cmax) {
        a->hx = ux;
        a->hy = uy;
        return;
    }
    s = cross < 0 ? -smax : smax;
    hx = a->hx * cmax - a->hy * s;
    hy = a->hx * s + a->hy * cmax;
    n = sqrt(hx * hx + hy * hy);
    a->hx = hx / n;
    a->hy = hy / n;
}

/* The center of the open cell nearest to (x, y), searching rings of
 * growing Chebyshev radius around cell (cx, cy); ties go to the first
 * in row-major order.  0 when the map has no open cell. */
static int nearest_open_center(const ff_grid *g, double x, double y, long long cx, long long cy,
                               double *ox, double *oy)
{
    long long ring, limit;
    double best = INFINITY;
    int found = 0;

    /* Agents stay in the map or beside it; one far off (a NaN position, a
     * caller's teleport) finds nothing rather than searching for ever. */
    if (cx < -(long long)g->w - g->h || cy < -(long long)g->w - g->h || cx > 2 * ((long long)g->w + g->h) ||
        cy > 2 * ((long long)g->w + g->h))
        return 0;
    limit = (g->w > g->h ? g->w : g->h) + (cx < 0 ? -cx : cx) + (cy < 0 ? -cy : cy);

    for (ring = 1; ring <= limit; ring++) {
        long long i, j;
        for (j = cy - ring; j <= cy + ring; j++)
            for (i = cx - ring; i <= cx + ring; i++) {
                double mx, my, d2;
                if (i != cx - ring && i != cx + ring && j != cy - ring && j != cy + ring)
                    continue;
                if (i < 0 || j < 0 || i >= g->w || j >= g->h ||
                    !ff_grid_open(g, (size_t)j * (size_t)g->w + (size_t)i))
                    continue;
                mx = g->origin_x + ((double)i + 0.5) * g->cell_size;
                my = g->origin_y + ((double)j + 0.5) * g->cell_size;
                d2 = (mx - x) * (mx - x) + (my - y) * (my - y);
                if (d2 < best) {
                    best = d2;
                    *ox = mx;
                    *oy = my;
                }
                found = 1;
            }
        /* Every center on ring + 1 is at least ring + 0.5 cells away. */
        if (found && ((double)ring + 0.5) * ((double)ring + 0.5) * g->cell_size * g->cell_size > best)
            return 1;
    }
    return found;
}

/* An agent standing in a blocked cell walks out at full speed: along its
 * cell's direction when it has one, else toward the nearest open cell's
 * center.  No sliding: it is already inside a wall. */
static void escape(ff_crowd *c, ff_agent *a, const ff_agent_class *cls, long long cx, long long cy)
{
    const ff_grid *g = c->grid;
    double dt = c->scenario->tick_dt, step = cls->max_speed * dt, ux = 0, uy = 0;
    int inside = cx >= 0 && cy >= 0 && cx < g->w && cy < g->h;
    const uint8_t *dir = agent_dir_of(c, (size_t)(a - c->agent), a->cls);
    int d = inside && dir ? dir[(size_t)cy * (size_t)g->w + (size_t)cx] : FF_DIR_NONE;

    a->state = FF_AGENT_ESCAPING;
    c->stats.escapes++;
    if (d < 8) {
        ux = ff_dir_dx[d] / ff_step_length(d);
        uy = ff_dir_dy[d] / ff_step_length(d);
        if (step > g->cell_size)
            step = g->cell_size;  /* a cell a tick at most: never past the map */
    } else {
        double tx = a->x, ty = a->y, len;
        if (nearest_open_center(g, a->x, a->y, cx, cy, &tx, &ty)) {
            tx -= a->x;
            ty -= a->y;
            len = sqrt(tx * tx + ty * ty);
            if (len > 0) {
                if (step > len)
                    step = len;
                ux = tx / len;
                uy = ty / len;
            }
        }
    }
    a->vx = ux * step / dt;
    a->vy = uy * step / dt;
    a->x += ux * step;
    a->y += uy * step;
    if (cls->turns)
        ff_angular_turn(c, (size_t)(a - c->agent), 0);
    else
        turn_heading(a, a->vx, a->vy, c->turn_cos[a->cls], c->turn_sin[a->cls]);
}

/* An agent that stops without steering (deadlocked, waiting for its
 * field, stuck): a steered heading's turn rate brakes toward 0 within
 * its limits; the others keep their heading. */
static inline void stop(ff_crowd *c, ff_agent *a, int turning)
{
    a->vx = a->vy = 0;
    if (turning)
        ff_angular_turn(c, (size_t)(a - c->agent), 0);
}

/* Accelerate agent a toward the desired velocity (sx, sy) times its
 * class's speed, within the class's acceleration over dt, and no faster
 * than its speed. */
static inline void accelerate(ff_agent *a, const ff_agent_class *cls, double sx, double sy, double dt)
{
    double dvx = sx * cls->max_speed - a->vx, dvy = sy * cls->max_speed - a->vy;
    double amax = cls->max_accel * dt, dv = dvx * dvx + dvy * dvy, speed2;

    /* (Well inside the limit the root cannot exceed it: no need of it.) */
    if (!(dv < amax * amax * (1 - 1e-12)) && (dv = sqrt(dv)) > amax) {
        dvx *= amax / dv;
        dvy *= amax / dv;
    }
    a->vx += dvx;
    a->vy += dvy;
    speed2 = a->vx * a->vx + a->vy * a->vy;
    if (speed2 > cls->max_speed * cls->max_speed) {
        double s = cls->max_speed / sqrt(speed2);
        a->vx *= s;
        a->vy *= s;
    }
}

/* Move agent a (at its start of the tick, x0 y0, in cell cx cy whose
 * near-wall entry is near) by its velocity over the tick, sliding along
 * the walls; its velocity is then what the move kept, and a->clear
 * whether it ended clear of the walls. */
static inline void slide(ff_crowd *c, ff_agent *a, const ff_agent_class *cls, const agent_ctx *q,
                         long long cx, long long cy, int near)
{
    double dt = c->scenario->tick_dt, mx = a->vx * dt, my = a->vy * dt;
    int far;

    /* (mx * mx + my * my > 0: the slide's own test for a move at all,
     * false for NaN and for moves too small to square.) */
    if (q->cells && mx * mx + my * my > 0 && near > c->slide_far_k[a->cls]) {
        /* What the slide does with a move of one substep that the
         * near-wall map shows clear (slide_far_k), without the root
         * and the divisions. */
        a->x += mx;
        a->y += my;
        far = 1;
    } else if (q->cells) {
        ff_walls_slide_from(&c->walls, (long)cx, (long)cy, cls->radius, &a->x, &a->y, mx, my, &far);
    } else {
        ff_walls_slide_far(&c->walls, cls->radius, &a->x, &a->y, mx, my, &far);
    }
    a->clear = (uint8_t)far;
    a->vx = (a->x - a->x0) / dt;
    a->vy = (a->y - a->y0) / dt;
}

/* ff_steer_agent for a class with angular behaviours (turning 1) or
 * without (0): one code, made twice, so that the common step holds no
 * trace of the turning one. */
static ALWAYS_INLINE void steer_step(ff_crowd *c, size_t index, agent_ctx *qs, int turning)
{
    const ff_grid *g = c->grid;
    ff_agent *a = &c->agent[index];
    const ff_agent_class *cls = &c->scenario->cls[a->cls];
    double dt = c->scenario->tick_dt, sx, sy, len2, hx0, hy0;
    agent_ctx *q = qs;
    long long cx, cy;
    const uint8_t *dir = agent_dir_of(c, index, a->cls);
    uint32_t next;
    int inside, near;

    c->stats.agent_steps++;
    a->x0 = a->x;
    a->y0 = a->y;
    a->clear = 0;
    if (a->state == FF_AGENT_DEADLOCKED) {  /* for good (standoff.c) */
        stop(c, a, turning);
        return;
    }
    if (q->cells) {
        cx = (long long)q->fx;
        cy = (long long)q->fy;
        inside = 1;
    } else {
        inside = world_to_cell(c, a->x, a->y, &cx, &cy);
    }
    /* The near-wall map is 0 exactly on the blocked cells: a byte to read
     * rather than a cost. */
    near = inside ? c->walls.near[(size_t)cy * (size_t)g->w + (size_t)cx] : 0;
    if (near == 0) {
        escape(c, a, cls, cx, cy);
        /* Its velocity is its whole displacement (the end of the tick
         * measures it again if the resolution moves it). */
        a->vx = (a->x - a->x0) / dt;
        a->vy = (a->y - a->y0) / dt;
        return;
    }
    q->own = 0;
    if (cls->follows && !dir) {
        /* The field is stale: never follow it.  Wait, or walk an own
         * path on the current map. */
        if (c->scenario->fallback == FF_FALLBACK_ASTAR && !own_goal(c, index) &&
            ff_ownpath_next(c, index, (uint32_t)((size_t)cy * (size_t)g->w + (size_t)cx), NULL, &next)) {
            q->own = 1;
            q->tx = cell_center_x(g, next);
            q->ty = cell_center_y(g, next);
        } else {
            a->state = FF_AGENT_WAITING_FIELD;
            stop(c, a, turning);
            c->stats.stale_ticks++;
            return;
        }
    } else if (a->own_path) {
        ff_ownpath_drop(&c->plan[index]);  /* the new field is in: resume it */
        a->own_path = 0;
    }
    if (cls->follows && !q->own && dir[(size_t)cy * (size_t)g->w + (size_t)cx] == FF_DIR_NONE) {
        /* Unreachable: stop, and never keep the old heading going. */
        a->state = FF_AGENT_STUCK;
        stop(c, a, turning);
        return;
    }
    a->state = q->own ? FF_AGENT_FALLBACK : FF_AGENT_MOVING;
    if (c->standoff)
        ff_standoff_progress(c, index, (size_t)cy * (size_t)g->w + (size_t)cx, dir);
    q->c = c;
    q->a = a;
    q->index = index;
    q->cls = cls;
    q->cx = cx;
    q->cy = cy;
    q->dir = dir;
    q->lookups = 0;
    hx0 = a->hx;
    hy0 = a->hy;
    if ((turning ? blend_and_turn(c, cls, q, &sx, &sy) : blend_groups(cls, propose, q, &sx, &sy, NULL)) < 0)
        c->stats.group_fallbacks++;
    c->stats.direction_lookups += q->lookups;
    len2 = sx * sx + sy * sy;
    if (len2 > 1) {
        len2 = sqrt(len2);
        sx /= len2;
        sy /= len2;
    }
    accelerate(a, cls, sx, sy, dt);
    if (!turning && a->vx * a->vx + a->vy * a->vy >= 0.01 * cls->max_speed * cls->max_speed)
        turn_heading(a, a->vx, a->vy, c->turn_cos[a->cls], c->turn_sin[a->cls]);
    slide(c, a, cls, q, cx, cy, near);
    if (a->x != a->x0 || a->y != a->y0) {
        c->stats.jitter_moves++;
        if (a->hx != hx0 || a->hy != hy0) {
            double cross = hx0 * a->hy - hy0 * a->hx, dot = hx0 * a->hx + hy0 * a->hy;
            c->stats.jitter_sum += atan2(fabs(cross), dot) * (180 / PI);
        }
    }
}

static NOINLINE void steer_turning(ff_crowd *c, size_t index, agent_ctx *q)
{
    steer_step(c, index, q, 1);
}

void ff_steer_agent(ff_crowd *c, size_t index, agent_ctx *q)
{
    if (c->scenario->cls[c->agent[index].cls].turns)
        steer_turning(c, index, q);
    else
        steer_step(c, index, q, 0);
}
