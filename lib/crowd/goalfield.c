/* goalfield.c - the fields of agents' own goals; see goalfield.h. */
#include "goalfield.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "direction.h"
#include "search.h"

void ff_goalfields_init(ff_goalfields *s)
{
    memset(s, 0, sizeof *s);
    s->cost_profile = -1;
}

void ff_goalfields_free(ff_goalfields *s)
{
    size_t k;
    for (k = 0; k < s->nfields; k++) {
        free(s->field[k].distance);
        free(s->field[k].direction);
    }
    free(s->field);
    free(s->key);
    free(s->slot_field);
    free(s->queue);
    ff_goalfields_init(s);
}

static size_t slot_of(uint64_t key, size_t nslots)
{
    return (size_t)(key * 0x9E3779B97F4A7C15ULL >> 17) & (nslots - 1);
}

static ff_status grow(ff_goalfields *s, ff_error *err)
{
    size_t n = s->nslots ? 2 * s->nslots : 64, k;
    uint64_t *key = calloc(n, sizeof *key);
    uint32_t *val = malloc(n * sizeof *val);

    if (!key || !val) {
        free(key);
        free(val);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for goal fields");
    }
    for (k = 0; k < s->nslots; k++)
        if (s->key[k]) {
            size_t h = slot_of(s->key[k], n);
            while (key[h])
                h = (h + 1) & (n - 1);
            key[h] = s->key[k];
            val[h] = s->slot_field[k];
        }
    free(s->key);
    free(s->slot_field);
    s->key = key;
    s->slot_field = val;
    s->nslots = n;
    return FF_OK;
}

ff_status ff_goalfields_find(ff_goalfields *s, int32_t profile, uint32_t goal, uint32_t *index,
                             ff_error *err)
{
    uint64_t key = ((uint64_t)(uint32_t)profile << 32 | goal) + 1;
    size_t h;
    ff_status st;

    if (2 * (s->nfields + 1) > s->nslots && (st = grow(s, err)) != FF_OK)
        return st;
    for (h = slot_of(key, s->nslots); s->key[h]; h = (h + 1) & (s->nslots - 1))
        if (s->key[h] == key) {
            *index = s->slot_field[h];
            return FF_OK;
        }
    if (s->nfields == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        ff_goalfield *f = realloc(s->field, cap * sizeof *f);
        if (!f)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for goal fields");
        s->field = f;
        s->cap = cap;
    }
    memset(&s->field[s->nfields], 0, sizeof *s->field);
    s->field[s->nfields].profile = profile;
    s->field[s->nfields].goal = goal;
    s->key[h] = key;
    s->slot_field[h] = (uint32_t)s->nfields;
    *index = (uint32_t)s->nfields++;
    return FF_OK;
}

/* The cost every open cell of grid g has, or 0 when they differ (or none
 * is open). */
static float uniform_cost(const ff_grid *g)
{
    size_t n = (size_t)g->w * (size_t)g->h, k;
    float c0 = 0;
    for (k = 0; k < n; k++) {
        float c = g->cost[k];
        if (!(c < INFINITY))
            continue;
        if (c0 == 0)
            c0 = c;
        else if (c != c0)
            return 0;
    }
    return c0;
}

/* The field of one goal on a grid of 4 moves whose open cells all cost c0
 * > 0, from the profile's step masks: breadth first from the goal, each
 * step adding the one step cost as ff_search's uniform search does, so
 * the same distances bit for bit; then the codes by ff_direction_field's
 * rule (the first legal step in code order that ff_step_taken takes; a
 * legal step joins two cells of cost c0, so ff_grid_step_cost is so).  1
 * done, 0 when a step keeps the distance (the general build must run,
 * with hop counts).  The profile's masks are read, not
 * made again: that and the search's own first pass were most of a goal
 * field's build. */
static int build_uniform4(const ff_grid *g, const uint8_t *step_mask, float c0, uint32_t goal,
                          uint32_t *queue, double *dist, uint8_t *dir)
{
    size_t n = (size_t)g->w * (size_t)g->h, head = 0, tail = 0, k;
    double so = ff_step_length(0) * g->cell_size * 0.5 * ((double)c0 + (double)c0);
    ptrdiff_t off[4];
    int d, flat = 0;

    for (d = 0; d < 4; d++)
        off[d] = (ptrdiff_t)ff_dir_dy[d] * g->w + ff_dir_dx[d];
    for (k = 0; k < n; k++)
        dist[k] = INFINITY;
    dist[goal] = 0;
    queue[tail++] = goal;
    while (head < tail) {
        uint32_t v = queue[head++];
        int x = (int)(v % (uint32_t)g->w), y = (int)(v / (uint32_t)g->w);
        double to = dist[v] + so;
        for (d = 0; d < 4; d++) {
            /* u steps in direction d into v */
            int ux = x - ff_dir_dx[d], uy = y - ff_dir_dy[d];
            size_t u;
            if (ux < 0 || uy < 0 || ux >= g->w || uy >= g->h)
                continue;
            u = (size_t)((ptrdiff_t)v - off[d]);
            if (!(step_mask[u] >> d & 1) || dist[u] < INFINITY)
                continue;
            dist[u] = to;
            queue[tail++] = (uint32_t)u;
        }
    }
    for (k = 0; k < n; k++) {
        double dk = dist[k];
        if (!(dk < INFINITY)) {
            dir[k] = FF_DIR_NONE;
            continue;
        }
        if (k == goal) {
            dir[k] = FF_DIR_GOAL;
            continue;
        }
        dir[k] = FF_DIR_NONE;
        for (d = 0; d < 4; d++)
            if (step_mask[k] >> d & 1 &&
                ff_step_taken(dk, dist[(size_t)((ptrdiff_t)k + off[d])], so, NULL, 0, 0, &flat)) {
                dir[k] = (uint8_t)d;
                break;
            }
    }
    return flat ? 0 : 1;
}

ff_status ff_goalfields_ensure(ff_goalfields *s, ff_profiles *p, uint32_t index, ff_error *err)
{
    ff_goalfield *f = &s->field[index];
    const ff_profile *pf = &p->profile[f->profile];
    size_t n = (size_t)pf->grid.w * (size_t)pf->grid.h, k;
    ff_grid g;
    uint32_t goal = f->goal;
    ff_status st;

    if (pf->stale || (f->built && f->built_id == pf->id))
        return FF_OK;
    if (!f->distance) {
        f->distance = malloc(n * sizeof *f->distance);
        f->direction = malloc(n);
        if (!f->distance || !f->direction)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for goal fields");
    }
    /* The profile's grid (its clearance, the current map) with this one
     * goal: a goal its clearance closes has no field. */
    g = pf->grid;
    g.goals = &goal;
    g.ngoals = ff_grid_open(&pf->grid, goal) ? 1 : 0;
    if (g.ngoals == 0) {
        for (k = 0; k < n; k++) {
            f->distance[k] = INFINITY;
            f->direction[k] = FF_DIR_NONE;
        }
    } else {
        int fast = 0;
        if (g.moves == 4 && (s->cost_profile != f->profile || s->cost_id != pf->id)) {
            s->cost_uniform = uniform_cost(&g);
            s->cost_profile = f->profile;
            s->cost_id = pf->id;
        }
        if (g.moves == 4 && s->cost_uniform > 0) {
            if (s->queue_cap < n) {
                uint32_t *q = realloc(s->queue, n * sizeof *q);
                if (!q)
                    return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for goal fields");
                s->queue = q;
                s->queue_cap = n;
            }
            fast = build_uniform4(&g, pf->step_mask, s->cost_uniform, goal, s->queue, f->distance,
                                  f->direction);
        }
        if (!fast && ((st = ff_search(&g, f->distance, err)) != FF_OK ||
                      (st = ff_direction_field(&g, f->distance, f->direction, err)) != FF_OK))
            return st;
    }
    f->built = 1;
    f->built_id = pf->id;
    s->builds++;
    s->build_bytes += n * (sizeof *f->distance + sizeof *f->direction);
    return FF_OK;
}
