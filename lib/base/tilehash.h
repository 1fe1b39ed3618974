/* tilehash.h - the hash of a plane of values (one or more a cell, over a
 * w x h grid) as a tree of tile hashes, so that a change of a few cells
 * is hashed again in time proportional to the change (man 5 ff, "Ids").
 *
 * Level 0 cuts the plane into tiles of FF_TILE x FF_TILE cells from the
 * north-west corner (those of the east column and the south row
 * narrower or shorter); a tile's hash is the hash (hash.h) of its cells'
 * values as little-endian bytes, row by row from the north, each row
 * from the west, a cell's values (lanes) together.  Level k + 1 groups
 * the nodes of level k into blocks of FF_TILE_FANOUT x FF_TILE_FANOUT the
 * same way; a node's hash is the hash of its children's hashes as
 * little-endian u64, in the same order.  The plane's hash is the one
 * node of the first level that has one node (level 0 for a plane of at
 * most FF_TILE x FF_TILE cells).
 */
#ifndef FF_TILEHASH_H
#define FF_TILEHASH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FF_TILE 64         /* cells on a tile's side */
#define FF_TILE_FANOUT 8   /* nodes on a parent's side */
#define FF_TILE_LEVELS 12  /* enough for 2^31 cells on a side */

/* A plane: w x h cells (>= 1 each) of lanes values of elem_size bytes
 * (1, 2, 4 or 8) each, at values, row-major. */
typedef struct {
    const void *values;
    int32_t w, h;
    size_t elem_size;
    int lanes;
} ff_plane;

/* The plane's hash, computed whole (no memory allocated). */
uint64_t ff_plane_hash(const ff_plane *p);

/* The tree of a plane, kept to be hashed again where it changed.  Zero it
 * (or ff_tilehash_free) before the first use; it owns its arrays. */
typedef struct {
    int32_t w, h;             /* the plane it was built for; 0 0: none */
    size_t elem_size;
    int lanes;
    int levels;               /* levels kept, 0 until built */
    int whole;                /* 1: every tile to be hashed again */
    int32_t nw[FF_TILE_LEVELS], nh[FF_TILE_LEVELS]; /* nodes a level */
    uint64_t *node[FF_TILE_LEVELS]; /* nw*nh hashes a level */
    uint8_t *dirty[FF_TILE_LEVELS]; /* nw*nh marks a level */
    uint32_t *todo;           /* dirty tiles of level 0 */
    size_t ntodo, todo_cap;
    int lost;                 /* 1 when a mark could not be listed */
} ff_tilehash;

/* Mark the tiles of cells (indices y*w+x of the plane the tree was built
 * for; any order, repeats allowed) as changed.  Before the first build
 * it does nothing (the build hashes every tile). */
void ff_tilehash_touch(ff_tilehash *t, const uint32_t *cells, size_t n);

/* Mark every tile as changed. */
void ff_tilehash_touch_all(ff_tilehash *t);

/* The hash of plane p (ff_plane_hash's value), from the tree: built on
 * the first call or when p's size or value size differ from the tree's,
 * else only the tiles touched since the last call and their ancestors
 * hashed again.  When memory for the tree runs out the plane is hashed
 * whole, as ff_plane_hash does: it cannot fail. */
uint64_t ff_tilehash_hash(ff_tilehash *t, const ff_plane *p);

void ff_tilehash_free(ff_tilehash *t);

#ifdef __cplusplus
}
#endif

#endif
