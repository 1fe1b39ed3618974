/* mapkind.h - what kind of map an input starts as, told from its first
 * bytes (a Moving AI map, an ffmap, a PNG, a Tiled map), so that a map
 * given where an ff stream is wanted is named as such, and ffsim can take
 * either (mapread.h reads them).
 */
#ifndef FF_MAPKIND_H
#define FF_MAPKIND_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The kind of map data starts with (its first bytes, at least its first
 * line): "a Moving AI map", "an ffmap", "a PNG map" or "a Tiled map";
 * NULL for an ff stream or anything else. */
const char *ff_map_kind(const unsigned char *data, size_t size);

/* 1 when data starts with word, then a blank, a line end or its end:
 * the first word of a map's first line ("type", "ffmap", "ff"). */
int ff_map_starts_with_word(const unsigned char *data, size_t size, const char *word);

#ifdef __cplusplus
}
#endif

#endif
