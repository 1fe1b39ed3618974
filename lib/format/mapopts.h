/* mapopts.h - the options every map reader takes. */
#ifndef FF_MAPOPTS_H
#define FF_MAPOPTS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t max_cells;  /* refuse maps larger than this; 0 = default */
    double png_scale;    /* cost per grey level of a PNG map (> 0) */
    const char *path;    /* the map's file, whose folder a Tiled map's
                          * external tilesets are read from; NULL when the
                          * map has no file (standard input, memory): its
                          * external tilesets are then refused.  Not owned. */
    const char *layer;   /* a Tiled map: read only the tile layer of this
                          * name; NULL = every visible tile layer.  Not owned. */
} ff_map_options;

/* The defaults: the default cell limit, a PNG scale of 1, no file, every
 * layer. */
void ff_map_options_init(ff_map_options *o);

#ifdef __cplusplus
}
#endif

#endif
