/* tilehash.c - the hash of a plane as a tree of tile hashes; see
 * tilehash.h. */
#include "tilehash.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "hash.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NATIVE_LE 1
#else
#define NATIVE_LE 0
#endif

/* The nodes of each level of a w x h plane; returns how many levels,
 * the last one of a single node. */
static int level_sizes(int32_t w, int32_t h, int32_t *nw, int32_t *nh)
{
    int k = 0;

    nw[0] = (int32_t)(((int64_t)w + FF_TILE - 1) / FF_TILE);
    nh[0] = (int32_t)(((int64_t)h + FF_TILE - 1) / FF_TILE);
    while ((nw[k] > 1 || nh[k] > 1) && k + 1 < FF_TILE_LEVELS) {
        nw[k + 1] = (nw[k] + FF_TILE_FANOUT - 1) / FF_TILE_FANOUT;
        nh[k + 1] = (nh[k] + FF_TILE_FANOUT - 1) / FF_TILE_FANOUT;
        k++;
    }
    return k + 1;
}

/* count values of elem_size bytes each, as little-endian bytes. */
static void hash_values(ff_hash *s, const uint8_t *v, size_t count, size_t elem_size)
{
    size_t k, b;

    if (NATIVE_LE || elem_size == 1) {
        ff_hash_bytes(s, v, count * elem_size);
        return;
    }
    for (k = 0; k < count; k++, v += elem_size) {
        uint8_t le[8];
        for (b = 0; b < elem_size; b++)
            le[b] = v[elem_size - 1 - b];
        ff_hash_bytes(s, le, elem_size);
    }
}

static uint64_t tile_hash(const ff_plane *p, int32_t tx, int32_t ty)
{
    size_t cell = p->elem_size * (size_t)p->lanes;
    int32_t x0 = tx * FF_TILE, y0 = ty * FF_TILE, y;
    int32_t x1 = p->w - x0 < FF_TILE ? p->w : x0 + FF_TILE;
    int32_t y1 = p->h - y0 < FF_TILE ? p->h : y0 + FF_TILE;
    ff_hash s;

    ff_hash_init(&s);
    for (y = y0; y < y1; y++)
        hash_values(&s, (const uint8_t *)p->values + ((size_t)y * (size_t)p->w + (size_t)x0) * cell,
                    (size_t)(x1 - x0) * (size_t)p->lanes, p->elem_size);
    return ff_hash_final(&s);
}

/* The hashes of SIDE (4) full tiles side by side from tile (tx, ty) into
 * out: the same as tile_hash, four chains of words at once (a tile's row
 * of 64 cells is whole words), so that the processor overlaps their
 * multiplications (1.7 times faster on a whole field than one chain).
 * Only where the values are little-endian in memory. */
#define SIDE 4
static void tile_hashes_side(const ff_plane *p, int32_t tx, int32_t ty, uint64_t *out)
{
    size_t cell = p->elem_size * (size_t)p->lanes, row = FF_TILE * cell, words = row / 8, k;
    int32_t y0 = ty * FF_TILE, y1 = p->h - y0 < FF_TILE ? p->h : y0 + FF_TILE, y;
    uint64_t h0 = FF_HASH_START, h1 = FF_HASH_START, h2 = FF_HASH_START, h3 = FF_HASH_START;

    for (y = y0; y < y1; y++) {
        const uint8_t *r = (const uint8_t *)p->values +
                           ((size_t)y * (size_t)p->w + (size_t)tx * FF_TILE) * cell;
        for (k = 0; k < words; k++, r += 8) {
            uint64_t w0, w1, w2, w3;
            memcpy(&w0, r, 8);
            memcpy(&w1, r + row, 8);
            memcpy(&w2, r + 2 * row, 8);
            memcpy(&w3, r + 3 * row, 8);
            h0 = ff_hash_mix(h0, w0);
            h1 = ff_hash_mix(h1, w1);
            h2 = ff_hash_mix(h2, w2);
            h3 = ff_hash_mix(h3, w3);
        }
    }
    out[0] = ff_hash_mix(h0, (uint64_t)(y1 - y0) * row);
    out[1] = ff_hash_mix(h1, (uint64_t)(y1 - y0) * row);
    out[2] = ff_hash_mix(h2, (uint64_t)(y1 - y0) * row);
    out[3] = ff_hash_mix(h3, (uint64_t)(y1 - y0) * row);
}

/* The hashes of tiles x0..x1-1 of tile row y into out. */
static void tile_row(const ff_plane *p, int32_t x0, int32_t x1, int32_t y, uint64_t *out)
{
    int32_t x = x0;

    /* SIDE at a time while they are full tiles (not the east one of a
     * plane whose width is no multiple of FF_TILE). */
    if (NATIVE_LE || p->elem_size == 1)
        for (; x + SIDE <= x1 && (int64_t)(x + SIDE) * FF_TILE <= p->w; x += SIDE)
            tile_hashes_side(p, x, y, out + (x - x0));
    for (; x < x1; x++)
        out[x - x0] = tile_hash(p, x, y);
}

/* The hash of node (x, y) of level (>= 1) from the hashes of level - 1,
 * children (nw_child nodes a row). */
static uint64_t parent_hash(const uint64_t *children, int32_t nw_child, int32_t nh_child,
                            int32_t x, int32_t y)
{
    int32_t i, j, i1 = x * FF_TILE_FANOUT + FF_TILE_FANOUT, j1 = y * FF_TILE_FANOUT + FF_TILE_FANOUT;
    ff_hash s;

    if (i1 > nw_child)
        i1 = nw_child;
    if (j1 > nh_child)
        j1 = nh_child;
    ff_hash_init(&s);
    for (j = y * FF_TILE_FANOUT; j < j1; j++)
        for (i = x * FF_TILE_FANOUT; i < i1; i++)
            ff_hash_u64(&s, children[(size_t)j * (size_t)nw_child + (size_t)i]);
    return ff_hash_final(&s);
}

/* Node (x, y) of level, computed depth first without memory. */
static uint64_t node_hash(const ff_plane *p, const int32_t *nw, const int32_t *nh, int level,
                          int32_t x, int32_t y)
{
    int32_t i, j, i1 = x * FF_TILE_FANOUT + FF_TILE_FANOUT, j1 = y * FF_TILE_FANOUT + FF_TILE_FANOUT;
    ff_hash s;

    if (level == 0)
        return tile_hash(p, x, y);
    if (i1 > nw[level - 1])
        i1 = nw[level - 1];
    if (j1 > nh[level - 1])
        j1 = nh[level - 1];
    ff_hash_init(&s);
    for (j = y * FF_TILE_FANOUT; j < j1; j++) {
        uint64_t tiles[FF_TILE_FANOUT];
        if (level == 1)
            tile_row(p, x * FF_TILE_FANOUT, i1, j, tiles);
        for (i = x * FF_TILE_FANOUT; i < i1; i++)
            ff_hash_u64(&s, level == 1 ? tiles[i - x * FF_TILE_FANOUT]
                                       : node_hash(p, nw, nh, level - 1, i, j));
    }
    return ff_hash_final(&s);
}

uint64_t ff_plane_hash(const ff_plane *p)
{
    int32_t nw[FF_TILE_LEVELS], nh[FF_TILE_LEVELS];
    int levels = level_sizes(p->w, p->h, nw, nh);

    return node_hash(p, nw, nh, levels - 1, 0, 0);
}

void ff_tilehash_free(ff_tilehash *t)
{
    int k;

    for (k = 0; k < FF_TILE_LEVELS; k++) {
        free(t->node[k]);
        free(t->dirty[k]);
    }
    free(t->todo);
    memset(t, 0, sizeof *t);
}

/* Every node hashed again, level by level. */
static void hash_all(ff_tilehash *t, const ff_plane *p)
{
    int32_t x, y;
    int k;

    for (y = 0; y < t->nh[0]; y++)
        tile_row(p, 0, t->nw[0], y, t->node[0] + (size_t)y * (size_t)t->nw[0]);
    for (k = 1; k < t->levels; k++)
        for (y = 0; y < t->nh[k]; y++)
            for (x = 0; x < t->nw[k]; x++)
                t->node[k][(size_t)y * (size_t)t->nw[k] + (size_t)x] =
                    parent_hash(t->node[k - 1], t->nw[k - 1], t->nh[k - 1], x, y);
    for (k = 0; k < t->levels; k++)
        memset(t->dirty[k], 0, (size_t)t->nw[k] * (size_t)t->nh[k]);
    t->ntodo = 0;
    t->whole = t->lost = 0;
}

/* The arrays of a tree for p; 0, or -1 when out of memory (then t is
 * empty). */
static int build(ff_tilehash *t, const ff_plane *p)
{
    int k;

    ff_tilehash_free(t);
    t->levels = level_sizes(p->w, p->h, t->nw, t->nh);
    for (k = 0; k < t->levels; k++) {
        size_t n = (size_t)t->nw[k] * (size_t)t->nh[k];
        t->node[k] = malloc(n * sizeof *t->node[k]);
        t->dirty[k] = malloc(n);
        if (!t->node[k] || !t->dirty[k]) {
            ff_tilehash_free(t);
            return -1;
        }
    }
    t->w = p->w;
    t->h = p->h;
    t->elem_size = p->elem_size;
    t->lanes = p->lanes;
    hash_all(t, p);
    return 0;
}

void ff_tilehash_touch(ff_tilehash *t, const uint32_t *cells, size_t n)
{
    size_t k;

    if (!t->levels || t->whole || t->lost)
        return;
    for (k = 0; k < n; k++) {
        size_t x = cells[k] % (uint32_t)t->w, y = cells[k] / (uint32_t)t->w;
        size_t tile = y / FF_TILE * (size_t)t->nw[0] + x / FF_TILE;
        uint32_t *grown;
        if (t->dirty[0][tile])
            continue;
        if (!(grown = ff_grow(t->todo, &t->todo_cap, t->ntodo + 1, sizeof *grown, 64))) {
            t->lost = 1;
            return;
        }
        t->todo = grown;
        t->todo[t->ntodo++] = (uint32_t)tile;
        t->dirty[0][tile] = 1;
    }
}

void ff_tilehash_touch_all(ff_tilehash *t)
{
    t->whole = 1;
}

uint64_t ff_tilehash_hash(ff_tilehash *t, const ff_plane *p)
{
    size_t k, m;
    int lv;

    if (!t->levels || t->w != p->w || t->h != p->h || t->elem_size != p->elem_size ||
        t->lanes != p->lanes) {
        if (build(t, p) < 0)
            return ff_plane_hash(p);
        return t->node[t->levels - 1][0];
    }
    if (t->whole || t->lost) {
        hash_all(t, p);
        return t->node[t->levels - 1][0];
    }
    for (k = 0; k < t->ntodo; k++) {
        uint32_t tile = t->todo[k];
        t->node[0][tile] = tile_hash(p, (int32_t)(tile % (uint32_t)t->nw[0]),
                                     (int32_t)(tile / (uint32_t)t->nw[0]));
        t->dirty[0][tile] = 0;
    }
    /* The parents of what changed, level by level, listed in place. */
    for (lv = 1; lv < t->levels; lv++) {
        uint32_t nwc = (uint32_t)t->nw[lv - 1];
        for (k = m = 0; k < t->ntodo; k++) {
            uint32_t child = t->todo[k];
            size_t parent = child / nwc / FF_TILE_FANOUT * (size_t)t->nw[lv] +
                            child % nwc / FF_TILE_FANOUT;
            if (!t->dirty[lv][parent]) {
                t->dirty[lv][parent] = 1;
                t->todo[m++] = (uint32_t)parent;
            }
        }
        t->ntodo = m;
        for (k = 0; k < m; k++) {
            uint32_t node = t->todo[k];
            t->node[lv][node] = parent_hash(t->node[lv - 1], t->nw[lv - 1], t->nh[lv - 1],
                                            (int32_t)(node % (uint32_t)t->nw[lv]),
                                            (int32_t)(node / (uint32_t)t->nw[lv]));
            t->dirty[lv][node] = 0;
        }
    }
    t->ntodo = 0;
    return t->node[t->levels - 1][0];
}
