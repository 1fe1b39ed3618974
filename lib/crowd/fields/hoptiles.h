/* hoptiles.h - a field's hop counts to its goal, stored sparsely: the
 * map cut into tiles of 16 x 16 cells, a tile made the first time a
 * count is written in it (a search reaching it), none for the tiles it
 * never reaches.  An own goal's field grown lazily (goalfield.h) reaches
 * a few tiles round the cells its agents ask for: on Berlin_0_512 with
 * 1,000 agents, 118 of 1,024 tiles a field on average.
 *
 * A tile holds 16-bit counts relative to its base, the fewest steps
 * across and along from the goal to any of its cells (no 4-move path is
 * shorter, so no count is below it).  Counts that span 65,535 or more
 * over one tile (a detour that long, on maps of more than 65,535 cells)
 * take a second 16-bit plane, their high halves (the tile is wide).
 * Reading a count costs an index and a tile load; the tiles never move
 * once made, so a reader's pointer to the ff_hoptiles stays good while
 * the search grows it.
 */
#ifndef FF_HOPTILES_H
#define FF_HOPTILES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The hop count of a cell no search has reached. */
#define FF_HOP_UNREACHED UINT32_MAX

/* A tile's side, in cells (its log2), and its cells. */
#define FF_HOPTILE_SHIFT 4
#define FF_HOPTILE_SIDE (1u << FF_HOPTILE_SHIFT)
#define FF_HOPTILE_CELLS (FF_HOPTILE_SIDE * FF_HOPTILE_SIDE)

typedef struct {
    uint16_t *high;     /* NULL, or the high halves of wide counts */
    uint32_t base;      /* the hop count of relative count 0 */
    /* each cell's count minus base (low half when wide), row by row;
     * all ones (both halves when wide): unreached */
    uint16_t low[FF_HOPTILE_CELLS];
} ff_hoptile;

/* The tile of a block no count was written in, every cell unreached:
 * one for all, never written (the index's entry until its tile is made,
 * so that a read takes no branch on it). */
extern const ff_hoptile ff_hoptile_none;
#define FF_HOPTILE_NONE ((ff_hoptile *)&ff_hoptile_none)

typedef struct {
    ff_hoptile **tile;      /* tiles_w * tiles_h, row by row;
                               FF_HOPTILE_NONE: no count written in it.
                               Owned (but that one). */
    uint32_t w, h;          /* the map's size, cells */
    uint64_t row_mul;       /* cell / w as cell * row_mul >> row_shift */
    unsigned row_shift;
    uint32_t tiles_w, tiles_h;
    uint32_t goal_x, goal_y;
    size_t ntiles, nwide;   /* tiles made, and of them wide */
} ff_hoptiles;

/* Tiles of a w x h map (w * h <= 2^28) whose counts are steps from the
 * goal cell goal, every cell unreached.  -1 when out of memory or the
 * map is larger (t is then empty: ff_hoptiles_free is a no-op). */
int ff_hoptiles_init(ff_hoptiles *t, uint32_t w, uint32_t h, uint32_t goal);

/* Every cell unreached again, for the goal cell goal (the tiles freed). */
void ff_hoptiles_clear(ff_hoptiles *t, uint32_t goal);

void ff_hoptiles_free(ff_hoptiles *t);

/* The bytes t holds: itself, its index and its tiles. */
size_t ff_hoptiles_bytes(const ff_hoptiles *t);

/* The most bytes the tiles of a w x h map can hold (an ff_hoptiles, and
 * every tile made and its index entry, wide when w * h exceeds 65,535:
 * see above). */
uint64_t ff_hoptiles_bound(uint32_t w, uint32_t h);

/* The slot of tile of cell (x, y). */
static inline ff_hoptile **ff_hoptiles_slot(const ff_hoptiles *t, uint32_t x, uint32_t y)
{
    return &t->tile[(size_t)(y >> FF_HOPTILE_SHIFT) * t->tiles_w + (x >> FF_HOPTILE_SHIFT)];
}

/* The index in its tile of cell (x, y). */
static inline unsigned ff_hoptile_index(uint32_t x, uint32_t y)
{
    return (y & (FF_HOPTILE_SIDE - 1)) << FF_HOPTILE_SHIFT | (x & (FF_HOPTILE_SIDE - 1));
}

/* 1 when the tile of cell (x, y) is made. */
static inline int ff_hoptiles_made(const ff_hoptiles *t, uint32_t x, uint32_t y)
{
    return *ff_hoptiles_slot(t, x, y) != FF_HOPTILE_NONE;
}

/* The count of cell k of tile p. */
static inline uint32_t ff_hoptile_get(const ff_hoptile *p, unsigned k)
{
    uint32_t r = p->low[k];
    if (p->high)
        r |= (uint32_t)p->high[k] << 16;
    else if (r == UINT16_MAX)
        return FF_HOP_UNREACHED;
    return r == UINT32_MAX ? FF_HOP_UNREACHED : p->base + r;
}

/* The count of cell (x, y), inside the map. */
static inline uint32_t ff_hoptiles_get_xy(const ff_hoptiles *t, uint32_t x, uint32_t y)
{
    return ff_hoptile_get(*ff_hoptiles_slot(t, x, y), ff_hoptile_index(x, y));
}

/* The row of cell: cell / w, by a multiplication (Granlund and
 * Montgomery 1994: exact for cells under 2^28). */
static inline uint32_t ff_hoptiles_row(const ff_hoptiles *t, uint32_t cell)
{
    return (uint32_t)((uint64_t)cell * t->row_mul >> t->row_shift);
}

/* The count of cell, inside the map. */
static inline uint32_t ff_hoptiles_get(const ff_hoptiles *t, uint32_t cell)
{
    uint32_t y = ff_hoptiles_row(t, cell);
    return ff_hoptiles_get_xy(t, cell - y * t->w, y);
}

/* ff_hoptiles_get out of line (for readers that inline the rest: the
 * costs of small maps' fields, a plane, are read inline). */
uint32_t ff_hoptiles_count(const ff_hoptiles *t, uint32_t cell);

/* Set the count of cell k (at x, y) of tile *slot to hops, making the
 * tile when there is none and widening it when hops does not fit.  -1
 * when out of memory (the count left as it was). */
int ff_hoptiles_set_slow(ff_hoptiles *t, ff_hoptile **slot, uint32_t x, uint32_t y, unsigned k,
                         uint32_t hops);

static inline int ff_hoptiles_set(ff_hoptiles *t, ff_hoptile **slot, uint32_t x, uint32_t y, unsigned k,
                                  uint32_t hops)
{
    ff_hoptile *p = *slot;
    uint32_t r;
    if (p == FF_HOPTILE_NONE || hops < p->base)
        return ff_hoptiles_set_slow(t, slot, x, y, k, hops);
    r = hops - p->base;
    if (p->high) {
        if (r == UINT32_MAX)
            return ff_hoptiles_set_slow(t, slot, x, y, k, hops);
        p->high[k] = (uint16_t)(r >> 16);
    } else if (r >= UINT16_MAX) {
        return ff_hoptiles_set_slow(t, slot, x, y, k, hops);
    }
    p->low[k] = (uint16_t)r;
    return 0;
}

/* Set the count of cell, inside the map, to hops.  -1 when out of
 * memory. */
static inline int ff_hoptiles_put(ff_hoptiles *t, uint32_t cell, uint32_t hops)
{
    uint32_t y = ff_hoptiles_row(t, cell), x = cell - y * t->w;
    return ff_hoptiles_set(t, ff_hoptiles_slot(t, x, y), x, y, ff_hoptile_index(x, y), hops);
}

#ifdef __cplusplus
}
#endif

#endif
