/* tiledmap.h - a Tiled map (JSON .tmj or XML .tmx) as a grid, by the
 * convention of man 5 fftiled; ff_map_parse() calls it when the input
 * starts with '{' or '<'. */
#ifndef FF_TILEDMAP_H
#define FF_TILEDMAP_H

#include <stddef.h>

#include "grid.h"
#include "mapopts.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when the first non-blank byte of data is '{' (JSON) or '<' (XML). */
int ff_map_is_tiled(const unsigned char *data, size_t size);

/* Read the Tiled map in memory into g (freshly initialised): JSON or XML
 * by its first non-blank byte.  name is the map in messages; external
 * tilesets are read from the folder of opt->path (refused without one);
 * opt->layer picks one tile layer.  On failure g is left empty and the
 * message is one line. */
ff_status ff_map_parse_tiled(const unsigned char *data, size_t size, const char *name,
                             const ff_map_options *opt, ff_grid *g, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
