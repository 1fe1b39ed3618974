/* gridid.c - the map id, whole or kept; see gridid.h. */
#include "gridid.h"

#include <string.h>

#include "hash.h"

/* The map id's message (man 5 ff, "Ids") from its plane hashes. */
static uint64_t grid_id_of(const ff_grid *g, uint64_t cost, const uint64_t *oneway,
                           const uint64_t *terrain)
{
    uint64_t bits;
    ff_hash s;

    ff_hash_init(&s);
    ff_hash_u32(&s, (uint32_t)g->w);
    ff_hash_u32(&s, (uint32_t)g->h);
    ff_hash_u32(&s, (uint32_t)g->moves);
    ff_hash_u32(&s, (uint32_t)g->corners);
    memcpy(&bits, &g->cell_size, 8);
    ff_hash_u64(&s, bits);
    memcpy(&bits, &g->radius, 8);
    ff_hash_u64(&s, bits);
    ff_hash_u64(&s, cost);
    ff_hash_bytes(&s, oneway ? "\1" : "\0", 1);
    if (oneway)
        ff_hash_u64(&s, *oneway);
    ff_hash_bytes(&s, terrain ? "\1" : "\0", 1);
    if (terrain)
        ff_hash_u64(&s, *terrain);
    return ff_hash_final(&s);
}

static ff_plane plane_of(const ff_grid *g, const void *values, size_t elem_size)
{
    ff_plane p;

    p.values = values;
    p.w = g->w;
    p.h = g->h;
    p.elem_size = elem_size;
    p.lanes = 1;
    return p;
}

uint64_t ff_grid_id(const ff_grid *g)
{
    ff_plane cost = plane_of(g, g->cost, 4), oneway = plane_of(g, g->oneway, 1),
             terrain = plane_of(g, g->terrain, 1);
    uint64_t oneway_hash = g->oneway ? ff_plane_hash(&oneway) : 0;
    uint64_t terrain_hash = g->terrain ? ff_plane_hash(&terrain) : 0;

    return grid_id_of(g, ff_plane_hash(&cost), g->oneway ? &oneway_hash : NULL,
                      g->terrain ? &terrain_hash : NULL);
}

uint64_t ff_grid_id_kept(const ff_grid *g, ff_grid_trees *t)
{
    ff_plane cost = plane_of(g, g->cost, 4), oneway = plane_of(g, g->oneway, 1),
             terrain = plane_of(g, g->terrain, 1);
    uint64_t oneway_hash = g->oneway ? ff_tilehash_hash(&t->oneway, &oneway) : 0;
    uint64_t terrain_hash = g->terrain ? ff_tilehash_hash(&t->terrain, &terrain) : 0;

    return grid_id_of(g, ff_tilehash_hash(&t->cost, &cost), g->oneway ? &oneway_hash : NULL,
                      g->terrain ? &terrain_hash : NULL);
}

void ff_grid_trees_touch(ff_grid_trees *t, const uint32_t *cells, size_t n)
{
    ff_tilehash_touch(&t->cost, cells, n);
}

void ff_grid_trees_touch_all(ff_grid_trees *t)
{
    ff_tilehash_touch_all(&t->cost);
    ff_tilehash_touch_all(&t->oneway);
    ff_tilehash_touch_all(&t->terrain);
}

void ff_grid_trees_free(ff_grid_trees *t)
{
    ff_tilehash_free(&t->cost);
    ff_tilehash_free(&t->oneway);
    ff_tilehash_free(&t->terrain);
}
