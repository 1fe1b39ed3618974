/* mapevents.c - a tick's map events applied to the map; see
 * profilesint.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "profilesint.h"

/* A hash of cell i, for the map's state key (Zobrist's hashing: the key
 * is the exclusive or of the changed cells'). */
static uint64_t cell_key(size_t i)
{
    uint64_t z = (uint64_t)i + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Set cell i of the map to cost now (its base cost, or +inf), listing it
 * and keeping the map's key when that changes it; -1 when out of memory. */
static int set_cell(ff_profiles *p, size_t i, float now)
{
    int was_changed = memcmp(&p->map.cost[i], &p->base.cost[i], sizeof now) != 0;

    if (memcmp(&now, &p->map.cost[i], sizeof now) == 0)
        return 0;
    p->map.cost[i] = now;
    if (was_changed != (memcmp(&now, &p->base.cost[i], sizeof now) != 0))
        p->map_key ^= cell_key(i);
    if (p->nchanged == p->changed_cap) {
        uint32_t *q = ff_grow(p->changed, &p->changed_cap, p->nchanged + 1, sizeof *q, 256);
        if (!q)
            return -1;
        p->changed = q;
    }
    p->changed[p->nchanged++] = (uint32_t)i;
    return 0;
}

/* The events first..last-1 of one tick, when they cover more cells than
 * the map has: each cell set once, by the last event that covers it
 * (painted from the last back, each row's cells found through a pointer
 * to the next one not yet painted): work is the map's cells and the
 * events' rows, however many events a tick has. */
static ff_status apply_painted(ff_profiles *p, size_t first, size_t last, ff_error *err)
{
    const ff_scenario *s = p->scenario;
    uint32_t w = (uint32_t)p->map.w, *next;
    size_t n = (size_t)p->map.w * (size_t)p->map.h, i, k;

    if (!(next = malloc(n * sizeof *next)))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
    for (i = 0; i < n; i++)
        next[i] = (uint32_t)(i % w);
    for (k = last; k-- > first;) {
        const ff_map_event *e = &s->event[k];
        int32_t y;
        for (y = e->y0; y <= e->y1; y++) {
            size_t row = (size_t)y * w;
            uint32_t x = (uint32_t)e->x0, root, up;
            for (;;) {
                /* The next cell not yet painted, the path compressed. */
                for (root = x; root < w && next[row + root] != root; root = next[row + root])
                    ;
                while (x != root) {
                    up = next[row + x];
                    next[row + x] = root;
                    x = up;
                }
                if (root > (uint32_t)e->x1)
                    break;
                next[row + root] = root + 1;
                if (set_cell(p, row + root, e->close ? INFINITY : p->base.cost[row + root]) < 0) {
                    free(next);
                    return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
                }
                x = root + 1;
            }
        }
    }
    free(next);
    return FF_OK;
}

/* Apply the events of tick t to the map, listing the cells that changed. */
ff_status ff_map_events_apply(ff_profiles *p, long long t, int *map_changed, ff_error *err)
{
    const ff_scenario *s = p->scenario;
    size_t first, last, k;
    uint64_t area = 0;

    p->nchanged = 0;
    /* Events before the first tick asked for are passed over. */
    while (p->next_event < s->nevents && s->event[p->next_event].tick < t)
        p->next_event++;
    first = p->next_event;
    for (last = first; last < s->nevents && s->event[last].tick == t; last++)
        area += (uint64_t)(s->event[last].x1 - s->event[last].x0 + 1) *
                (uint64_t)(s->event[last].y1 - s->event[last].y0 + 1);
    p->next_event = last;
    if (last == first)
        return FF_OK;
    *map_changed = 1;
    if (area > (uint64_t)p->map.w * (uint64_t)p->map.h)
        return apply_painted(p, first, last, err);
    for (k = first; k < last; k++) {
        const ff_map_event *e = &s->event[k];
        int32_t x, y;
        for (y = e->y0; y <= e->y1; y++)
            for (x = e->x0; x <= e->x1; x++) {
                size_t i = (size_t)y * (size_t)p->map.w + (size_t)x;
                if (set_cell(p, i, e->close ? INFINITY : p->base.cost[i]) < 0)
                    return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
            }
    }
    return FF_OK;
}
