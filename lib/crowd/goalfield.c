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
    memset(s, 0, sizeof *s);
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
    } else if ((st = ff_search(&g, f->distance, err)) != FF_OK ||
               (st = ff_direction_field(&g, f->distance, f->direction, err)) != FF_OK) {
        return st;
    }
    f->built = 1;
    f->built_id = pf->id;
    s->builds++;
    s->build_bytes += n * (sizeof *f->distance + sizeof *f->direction);
    return FF_OK;
}
