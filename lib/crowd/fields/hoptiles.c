/* hoptiles.c - a field's hop counts in tiles made as reached; see
 * hoptiles.h. */
#include "hoptiles.h"

#include <stdlib.h>
#include <string.h>

#define ALL4 UINT16_MAX, UINT16_MAX, UINT16_MAX, UINT16_MAX
#define ALL16 ALL4, ALL4, ALL4, ALL4
#define ALL64 ALL16, ALL16, ALL16, ALL16
const ff_hoptile ff_hoptile_none = { NULL, 0, { ALL64, ALL64, ALL64, ALL64 } };

static uint32_t tiles_across(uint32_t cells)
{
    return (uint32_t)(((uint64_t)cells + FF_HOPTILE_SIDE - 1) >> FF_HOPTILE_SHIFT);
}

int ff_hoptiles_init(ff_hoptiles *t, uint32_t w, uint32_t h, uint32_t goal)
{
    size_t k;
    memset(t, 0, sizeof *t);
    if (w == 0 || h == 0 || (uint64_t)w * h > ((uint64_t)1 << 28))
        return -1;
    t->w = w;
    t->h = h;
    /* (s = 28 + ceil(log2 w), and the multiplier ceil(2^s / w): under
     * 2^29, its products with cells under 2^28 under 2^57) */
    t->row_shift = 28;
    while (((uint64_t)1 << (t->row_shift - 28)) < w)
        t->row_shift++;
    t->row_mul = (((uint64_t)1 << t->row_shift) + w - 1) / w;
    t->tiles_w = tiles_across(w);
    t->tiles_h = tiles_across(h);
    if (!(t->tile = malloc((size_t)t->tiles_w * t->tiles_h * sizeof *t->tile))) {
        memset(t, 0, sizeof *t);
        return -1;
    }
    for (k = 0; k < (size_t)t->tiles_w * t->tiles_h; k++)
        t->tile[k] = FF_HOPTILE_NONE;
    t->goal_x = goal % w;
    t->goal_y = goal / w;
    return 0;
}

void ff_hoptiles_clear(ff_hoptiles *t, uint32_t goal)
{
    size_t k, n = (size_t)t->tiles_w * t->tiles_h;
    for (k = 0; k < n; k++)
        if (t->tile[k] != FF_HOPTILE_NONE) {
            free(t->tile[k]->high);
            free(t->tile[k]);
            t->tile[k] = FF_HOPTILE_NONE;
        }
    t->ntiles = t->nwide = 0;
    t->goal_x = goal % t->w;
    t->goal_y = goal / t->w;
}

void ff_hoptiles_free(ff_hoptiles *t)
{
    if (t->tile)
        ff_hoptiles_clear(t, 0);
    free(t->tile);
    memset(t, 0, sizeof *t);
}

size_t ff_hoptiles_bytes(const ff_hoptiles *t)
{
    return sizeof *t + (size_t)t->tiles_w * t->tiles_h * sizeof *t->tile + t->ntiles * sizeof(ff_hoptile) +
           t->nwide * FF_HOPTILE_CELLS * sizeof(uint16_t);
}

uint64_t ff_hoptiles_bound(uint32_t w, uint32_t h)
{
    uint64_t tiles = (uint64_t)tiles_across(w) * tiles_across(h);
    uint64_t tile = sizeof(ff_hoptile) + ((uint64_t)w * h > UINT16_MAX ? FF_HOPTILE_CELLS * sizeof(uint16_t) : 0);
    return sizeof(ff_hoptiles) + tiles * (sizeof(ff_hoptile *) + tile);
}

uint32_t ff_hoptiles_count(const ff_hoptiles *t, uint32_t cell)
{
    return ff_hoptiles_get(t, cell);
}

/* The fewest steps across and along from the goal to a cell of the tile
 * of cell (x, y): no count of the tile is lower. */
static uint32_t tile_base(const ff_hoptiles *t, uint32_t x, uint32_t y)
{
    uint32_t x0 = x & ~(FF_HOPTILE_SIDE - 1), y0 = y & ~(FF_HOPTILE_SIDE - 1);
    uint32_t x1 = x0 + FF_HOPTILE_SIDE - 1, y1 = y0 + FF_HOPTILE_SIDE - 1;
    uint32_t dx = t->goal_x < x0 ? x0 - t->goal_x : t->goal_x > x1 ? t->goal_x - x1 : 0;
    uint32_t dy = t->goal_y < y0 ? y0 - t->goal_y : t->goal_y > y1 ? t->goal_y - y1 : 0;
    return dx + dy;
}

int ff_hoptiles_set_slow(ff_hoptiles *t, ff_hoptile **slot, uint32_t x, uint32_t y, unsigned k,
                         uint32_t hops)
{
    ff_hoptile *p = *slot;
    uint32_t count[FF_HOPTILE_CELLS], base, top;
    uint16_t *high;
    unsigned i;

    if (p == FF_HOPTILE_NONE) {
        if (!(p = malloc(sizeof *p)))
            return -1;
        p->high = NULL;
        p->base = tile_base(t, x, y);
        memset(p->low, 0xff, sizeof p->low);
        *slot = p;
        t->ntiles++;
        if (hops >= p->base && hops - p->base < UINT16_MAX) {
            p->low[k] = (uint16_t)(hops - p->base);
            return 0;
        }
    }
    /* The tile's counts again from a base low enough for them all and
     * hops, with high halves when they span 65,535 or more (a count
     * below the base cannot be a count of 4-move steps; taken all the
     * same). */
    base = hops < p->base ? hops : p->base;
    top = hops;
    for (i = 0; i < FF_HOPTILE_CELLS; i++) {
        count[i] = ff_hoptile_get(p, i);
        if (count[i] != FF_HOP_UNREACHED && count[i] > top)
            top = count[i];
    }
    count[k] = hops;
    high = p->high;
    if (!high && top - base >= UINT16_MAX) {
        if (!(high = malloc(FF_HOPTILE_CELLS * sizeof *high)))
            return -1;
        t->nwide++;
    }
    p->high = high;
    p->base = base;
    for (i = 0; i < FF_HOPTILE_CELLS; i++) {
        uint32_t r = count[i] == FF_HOP_UNREACHED ? UINT32_MAX : count[i] - base;
        p->low[i] = (uint16_t)r;
        if (high)
            high[i] = (uint16_t)(r >> 16);
    }
    return 0;
}
