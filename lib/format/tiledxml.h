/* tiledxml.h - Tiled maps and tilesets in XML (.tmx, .tsx), read with
 * expat; the convention is in tiled.h (man 5 fftiled). */
#ifndef FF_TILEDXML_H
#define FF_TILEDXML_H

#include <stddef.h>

#include "grid.h"
#include "mapopts.h"
#include "tiled.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Read a TMX map in memory into t, and make the grid g (freshly
 * initialised) with ff_tiled_finish. */
ff_status ff_tiled_xml_map(ff_tiled *t, const unsigned char *data, size_t size, ff_grid *g);

/* Read the TSX tileset file (its bytes, its path) into set of t. */
ff_status ff_tiled_xml_tileset(ff_tiled *t, ff_tiled_tileset *set, const unsigned char *data,
                               size_t size, const char *file);

#ifdef __cplusplus
}
#endif

#endif
