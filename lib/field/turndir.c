/* turndir.c - the directions of a turn-cost field; see turn.h.
 *
 * The rule is direction.c's over states instead of cells, one piece
 * (ff_step_taken() and ff_step_hop(), direction.h): a state's code is the
 * first legal d, in the order N E S W NE SE SW NW, whose step is tight,
 * D(next state) + step_cost + C * turns = D(state) within FF_TIGHT_REL; a
 * tight step that does not lower D (zero-cost cells) is taken only when it
 * lowers the state's hop count, the fewest steps to a goal over tight
 * steps that never raise D, so that following the codes never loops.
 */
#include "turn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "direction.h"
#include "stream.h"

#define NO_HOPS UINT32_MAX

typedef struct {
    const ff_grid *g;
    const double *hdist;
    const uint8_t *mask;   /* legal forward steps of each cell */
    double turn_cost;
    ptrdiff_t offset[8];   /* index offset of the step in direction d */
} tdir_ctx;

/* The cost of the step from state (u, h) in direction d. */
static double edge_cost(const tdir_ctx *c, size_t u, int h, int d)
{
    return ff_grid_step_cost(c->g, u, d) + c->turn_cost * ff_turns(h, d);
}

/* The code of state (u, h) by ff_step_taken() (hops NULL: without hop
 * counts). */
static uint8_t pick(const tdir_ctx *c, size_t u, int h, const uint32_t *hops, int *flat)
{
    size_t s = 8 * u + (size_t)h;
    double du = c->hdist[s];
    int d;

    for (d = 0; d < 8; d++) {
        size_t t;
        if (!(c->mask[u] >> d & 1))
            continue;
        t = 8 * (size_t)((ptrdiff_t)u + c->offset[d]) + (size_t)d;
        if (ff_step_taken(du, c->hdist[t], edge_cost(c, u, h, d), hops, s, t, flat))
            return (uint8_t)d;
    }
    return FF_DIR_NONE;
}

/* Hop counts of the states: breadth-first from the goal states over
 * reversed tight steps that do not raise D. */
static ff_status count_hops(const tdir_ctx *c, uint32_t *hops, ff_error *err)
{
    const ff_grid *g = c->g;
    size_t n = (size_t)g->w * (size_t)g->h, head = 0, tail = 0, k;
    uint32_t *queue = malloc(8 * n * sizeof *queue);
    int d, h;

    if (!queue)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for hop counts");
    for (k = 0; k < 8 * n; k++)
        hops[k] = NO_HOPS;
    for (k = 0; k < g->ngoals; k++)
        for (h = 0; h < 8; h++) {
            hops[8 * (size_t)g->goals[k] + (size_t)h] = 0;
            queue[tail++] = (uint32_t)(8 * (size_t)g->goals[k] + (size_t)h);
        }
    while (head < tail) {
        uint32_t t = queue[head++];
        size_t v = t / 8;
        int x = (int)(v % (size_t)g->w), y = (int)(v / (size_t)g->w);
        d = (int)(t % 8);
        {
            int ux = x - ff_dir_dx[d], uy = y - ff_dir_dy[d];
            size_t u;
            if (ux < 0 || uy < 0 || ux >= g->w || uy >= g->h)
                continue;
            u = (size_t)((ptrdiff_t)v - c->offset[d]);
            if (!(c->mask[u] >> d & 1))
                continue;
            for (h = 0; h < 8; h++) {
                size_t s = 8 * u + (size_t)h;
                if (hops[s] != NO_HOPS ||
                    !ff_step_hop(c->hdist[s], c->hdist[t], edge_cost(c, u, h, d)))
                    continue;
                hops[s] = hops[t] + 1;
                queue[tail++] = (uint32_t)s;
            }
        }
    }
    free(queue);
    return FF_OK;
}

/* Each cell's best state's code: least D, then (with hops) fewest hops,
 * then the first heading. */
static void best_states(const ff_grid *g, const double *hdist, const uint32_t *hops,
                        const uint8_t *hdir, uint8_t *dir)
{
    size_t n = (size_t)g->w * (size_t)g->h, i;
    int h;

    for (i = 0; i < n; i++) {
        int best = 0;
        for (h = 1; h < 8; h++) {
            double a = hdist[8 * i + (size_t)h], b = hdist[8 * i + (size_t)best];
            if (a < b || (hops && a == b && hops[8 * i + (size_t)h] < hops[8 * i + (size_t)best]))
                best = h;
        }
        dir[i] = hdir[8 * i + (size_t)best];
    }
}

ff_status ff_turn_direction(const ff_grid *g, double turn_cost, const double *hdist,
                            uint8_t *hdir, uint8_t *dir, ff_error *err)
{
    size_t n = (size_t)g->w * (size_t)g->h, i;
    uint8_t *mask = malloc(n);
    uint32_t *hops = NULL;
    tdir_ctx c;
    int flat = 0, d, h;

    if (!mask)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu cells", n);
    ff_grid_step_masks(g, mask);
    c.g = g;
    c.hdist = hdist;
    c.mask = mask;
    c.turn_cost = turn_cost;
    for (d = 0; d < 8; d++)
        c.offset[d] = (ptrdiff_t)ff_dir_dy[d] * g->w + ff_dir_dx[d];
    for (i = 0; i < n; i++) {
        int open = ff_grid_open(g, i), goal = open && ff_grid_is_goal(g, i);
        for (h = 0; h < 8; h++) {
            size_t s = 8 * i + (size_t)h;
            if (!open || !(hdist[s] < INFINITY))
                hdir[s] = FF_DIR_NONE;
            else if (goal)
                hdir[s] = FF_DIR_GOAL;
            else
                hdir[s] = pick(&c, i, h, NULL, &flat);
        }
    }
    if (flat) {
        /* Some state has a tight step that keeps D: redo every reachable
         * state with hop counts so that the choice stays acyclic. */
        ff_status st;
        if (!(hops = malloc(8 * n * sizeof *hops))) {
            free(mask);
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for hop counts");
        }
        if ((st = count_hops(&c, hops, err)) != FF_OK) {
            free(mask);
            free(hops);
            return st;
        }
        for (i = 0; i < 8 * n; i++)
            if (hdir[i] != FF_DIR_GOAL && hdist[i] < INFINITY)
                hdir[i] = pick(&c, i / 8, (int)(i % 8), hops, &flat);
    }
    best_states(g, hdist, hops, hdir, dir);
    free(mask);
    free(hops);
    return FF_OK;
}

void ff_heading_plane(const uint8_t *hdir, size_t n, int h, uint8_t *out)
{
    size_t i;

    for (i = 0; i < n; i++)
        out[i] = hdir[8 * i + (size_t)h];
}

ff_status ff_field_as_heading(ff_field *f, int h, ff_error *err)
{
    size_t n = (size_t)f->grid.w * (size_t)f->grid.h, i;

    if (!f->turn || (!f->heading_distance && !f->heading_direction))
        return ff_error_set(err, FF_EUSAGE, NULL, 0, 0,
                            "the field has no headings (build it with ffbuild --turn-cost)");
    if (h < 0 || h > 7)
        return ff_error_set(err, FF_EUSAGE, NULL, 0, 0, "heading %d: not 0 to 7", h);
    if (f->distance && f->heading_distance)
        for (i = 0; i < n; i++)
            f->distance[i] = f->heading_distance[8 * i + (size_t)h];
    if (f->direction && f->heading_direction)
        ff_heading_plane(f->heading_direction, n, h, f->direction);
    free(f->heading_distance);
    free(f->heading_direction);
    f->heading_distance = NULL;
    f->heading_direction = NULL;
    f->turn = 0;
    f->turn_cost = 0;
    return FF_OK;
}

int ff_heading_nearest(double dx, double dy)
{
    /* The angle clockwise from north (world +y is south), in eighths. */
    double eighths = atan2(dx, -dy) / 0.78539816339744830962;
    long k;

    if (dx == 0 && dy == 0)
        return FF_DIR_N;
    k = (long)floor(eighths + 0.5);
    return ff_heading_clockwise[((k % 8) + 8) % 8];
}

int ff_heading_parse(const char *s)
{
    int h;

    if (s[0] >= '0' && s[0] <= '7' && s[1] == '\0')
        return s[0] - '0';
    for (h = 0; h < 8; h++)
        if (strcmp(s, ff_dir_name[h]) == 0)
            return h;
    return -1;
}
