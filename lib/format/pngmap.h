/* pngmap.h - a grey PNG as a map (painted maps); ff_map_parse() calls it
 * when the input starts with the PNG signature. */
#ifndef FF_PNGMAP_H
#define FF_PNGMAP_H

#include <stddef.h>

#include "grid.h"
#include "mapopts.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Decode a grey PNG in memory into g: level 0 is a wall, levels 1..255
 * cost level * png_scale.  An RGB, RGBA, palette or grey-and-alpha image
 * is read as grey when every pixel is grey (r == g == b) and opaque, and
 * refused otherwise; 16-bit images are refused. */
ff_status ff_map_parse_png(const unsigned char *data, size_t size, const char *name,
                           const ff_map_options *opt, ff_grid *g, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
