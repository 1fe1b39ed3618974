/* gridid.h - the map id: the hash of the graph alone (man 5 ff, "Ids"),
 * computed whole or kept up to date as cells' costs change.
 */
#ifndef FF_GRIDID_H
#define FF_GRIDID_H

#include <stdint.h>

#include "grid.h"
#include "tilehash.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Hash of the graph alone (what a field's map_id holds): size, moves,
 * corners, cell size, radius, and the plane hashes (tilehash.h) of the
 * costs, the one-way cells and the classes. */
uint64_t ff_grid_id(const ff_grid *g);

/* The trees of a grid's planes, kept beside it so that its id after a
 * change of some costs costs the tiles changed.  Zero it before the
 * first use; ff_grid_trees_free releases it. */
typedef struct {
    ff_tilehash cost, oneway, terrain;
} ff_grid_trees;

/* ff_grid_id(g), from the trees: the cost tiles touched since the last
 * call hashed again (ff_grid_trees_touch), or every tile after
 * ff_grid_trees_touch_all, or when g's size is not the trees'. */
uint64_t ff_grid_id_kept(const ff_grid *g, ff_grid_trees *t);

/* The costs of cells (indices, any order, repeats allowed) changed. */
void ff_grid_trees_touch(ff_grid_trees *t, const uint32_t *cells, size_t n);

/* Anything of the grid changed: every tile hashed again. */
void ff_grid_trees_touch_all(ff_grid_trees *t);

void ff_grid_trees_free(ff_grid_trees *t);

#ifdef __cplusplus
}
#endif

#endif
