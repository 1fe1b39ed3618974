/* goalfield.c - the fields of agents' own goals; see goalfield.h. */
#include "goalfield.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "direction.h"
#include "hugepage.h"
#include "search.h"

void ff_goalfields_init(ff_goalfields *s)
{
    memset(s, 0, sizeof *s);
    s->cost_profile = -1;
}

void ff_goalfields_free(ff_goalfields *s)
{
    size_t k;
    for (k = 0; k < s->nblocks; k++)
        free(s->block[k]);
    free(s->block);
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
 * the same distances bit for bit (every cell of h hops holds the same sum
 * of h step costs), and the codes in the same pass.  A cell of h hops
 * takes the first legal step in code order to a cell of h - 1 hops, which
 * is ff_direction_field's rule here: such a step is tight and lowers the
 * distance, and no other is tight while the largest distance times
 * FF_TIGHT_REL stays under half a step (else the general build runs).
 * The cells of h - 1 hops are all taken from the queue before any of h,
 * and each, when taken, offers its step to the neighbours of h hops: the
 * lowest code offered is the first.  1 done, 0 when the general build must
 * run (a step that keeps the distance, or the tolerance above).  The
 * profile's masks are read, not made again: a neighbour u of v stepping
 * in direction d into v is u = v - off[d], refused by u's mask when the
 * step leaves the map (so no coordinates, no division), and by u >= n
 * past the first or last row. */
static int build_uniform4(const ff_grid *g, const uint8_t *step_mask, float c0, uint32_t goal,
                          uint32_t *queue, double *dist, uint8_t *dir)
{
    size_t n = (size_t)g->w * (size_t)g->h, head = 0, tail = 0, k;
    double so = ff_step_length(0) * g->cell_size * 0.5 * ((double)c0 + (double)c0);
    size_t off[4];
    double inf = INFINITY;
    uint64_t inf_bits;
    int d;

    for (d = 0; d < 4; d++)
        off[d] = (size_t)((ptrdiff_t)ff_dir_dy[d] * g->w + ff_dir_dx[d]);
    for (k = 0; k < n; k++)
        dist[k] = INFINITY;
    memset(dir, FF_DIR_NONE, n);
    dist[goal] = 0;
    dir[goal] = FF_DIR_GOAL;
    queue[tail++] = goal;
    memcpy(&inf_bits, &inf, sizeof inf_bits);
    while (head < tail) {
        uint32_t v = queue[head++];
        double to = dist[v] + so;
        uint64_t to_bits;
        if (to == dist[v])
            return 0;
        memcpy(&to_bits, &to, sizeof to_bits);
        /* Without branches on the map (they would be guessed wrong half
         * the time): a legal step from u reaches v when u is unreached
         * (then it joins the queue: the slot is written every time, and
         * kept when fresh) or is of h hops already. */
        for (d = 0; d < 4; d++) {
            size_t u = v - off[d];
            uint64_t du;
            unsigned legal, fresh, reach, take;
            if (u >= n)
                continue;
            legal = step_mask[u] >> d & 1;
            memcpy(&du, &dist[u], sizeof du);
            fresh = legal & (du == inf_bits);
            reach = fresh | (legal & (du == to_bits));
            take = reach & (unsigned)(d < dir[u]);
            du = reach ? to_bits : du;
            memcpy(&dist[u], &du, sizeof du);
            dir[u] = take ? (uint8_t)d : dir[u];
            queue[tail] = (uint32_t)u;
            tail += fresh;
        }
    }
    return dist[queue[tail - 1]] * FF_TIGHT_REL < 0.5 * so;
}

/* Room for one field's arrays of n cells (the distances, then the codes),
 * carved from the store's blocks: fields are many, never freed one by
 * one, and each is written all over at once, so they share big blocks
 * that huge pages back (a few faults of 2 MB instead of one every 4 KB
 * of every field).  NULL when out of memory. */
static unsigned char *carve(ff_goalfields *s, size_t n)
{
    size_t need = (n * (sizeof(double) + 1) + 63) & ~(size_t)63;
    unsigned char *p;

    if (need > s->block_left) {
        size_t size = need > FF_GOALFIELD_BLOCK ? need : FF_GOALFIELD_BLOCK;
        if (s->nblocks == s->block_cap) {
            size_t cap = s->block_cap ? 2 * s->block_cap : 8;
            unsigned char **b = realloc(s->block, cap * sizeof *b);
            if (!b)
                return NULL;
            s->block = b;
            s->block_cap = cap;
        }
        if (!(p = malloc(size)))
            return NULL;
        ff_want_huge_pages(p, size);
        s->block[s->nblocks++] = p;
        s->block_at = p;
        s->block_left = size;
    }
    p = s->block_at;
    s->block_at += need;
    s->block_left -= need;
    return p;
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
        unsigned char *p = carve(s, n);
        if (!p)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for goal fields");
        f->distance = (double *)(void *)p;
        f->direction = p + n * sizeof(double);
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
            if (s->queue_cap < n + 1) {
                uint32_t *q = realloc(s->queue, (n + 1) * sizeof *q);
                if (!q)
                    return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for goal fields");
                s->queue = q;
                s->queue_cap = n + 1;
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
