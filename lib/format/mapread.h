/* mapread.h - reading a map into a grid: Moving AI .map, the native ffmap
 * text format, a grey PNG, or the map carried by an ff stream (man 5 ff).
 * The format is told by the first bytes of the input.
 */
#ifndef FF_MAPREAD_H
#define FF_MAPREAD_H

#include <stdio.h>

#include "grid.h"
#include "mapopts.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest header line of a Moving AI map and of an ffmap, bytes (the
 * newline not counted); a longer one is refused, never cut. */
#define FF_MOVINGAI_HEADER_LINE_MAX 127
#define FF_FFMAP_HEADER_LINE_MAX 4095

/* Read a whole map from f into g (which must be freshly initialised).
 * Goal and spawn tiles become g->goals and g->spawns.  name is used in
 * messages.  On failure g is left empty.  The input is bounded before it
 * is read: a regular file longer than any map of opt->max_cells cells
 * could be (3 bytes a cell and 64 MiB) is refused by its size, unread; a
 * pipe as soon as it passes that; and an input whose first bytes are no
 * map format's after its first read. */
ff_status ff_map_read(FILE *f, const char *name, const ff_map_options *opt,
                      ff_grid *g, ff_error *err);

/* Whether the input f, at its start, is a map rather than an ff stream
 * (ff_map_kind of its first bytes, mapkind.h), telling without consuming anything:
 * f is put back where it was.  0 for an ff stream, anything else, and an
 * input that cannot seek back (a pipe), which is taken as a stream. */
int ff_map_sniff(FILE *f);

/* The same, for a map already in memory. */
ff_status ff_map_parse(const unsigned char *data, size_t size, const char *name,
                       const ff_map_options *opt, ff_grid *g, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
