/* tiledjson.h - Tiled maps and tilesets in JSON (.tmj, .json, .tsj), read
 * with libjansson; the convention is in tiled.h (man 5 fftiled). */
#ifndef FF_TILEDJSON_H
#define FF_TILEDJSON_H

#include <stddef.h>

#include "grid.h"
#include "mapopts.h"
#include "tiled.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Read a Tiled JSON map in memory into t, and make the grid g (freshly
 * initialised) with ff_tiled_finish. */
ff_status ff_tiled_json_map(ff_tiled *t, const unsigned char *data, size_t size, ff_grid *g);

/* Read the JSON tileset file (its bytes, its path) into set of t. */
ff_status ff_tiled_json_tileset(ff_tiled *t, ff_tiled_tileset *set, const unsigned char *data,
                                size_t size, const char *file);

#ifdef __cplusplus
}
#endif

#endif
