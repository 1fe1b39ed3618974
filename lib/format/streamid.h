/* streamid.h - the content-hash ids of the ff stream (man 5 ff, "Ids"):
 * the distance id and the id of each derived channel of a field, from its
 * map id (ff_grid_id, fielddata.h).  The stream's reader checks them, its
 * writer writes them (stream.h).
 */
#ifndef FF_STREAMID_H
#define FF_STREAMID_H

#include <stdint.h>

#include "fielddata.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Compute map_id, distance_id when there is a distance, and the ids of
 * the derived channels (ff_field_update_derived_ids). */
void ff_field_update_ids(ff_field *f);

/* Compute distance_id and the derived channels' ids from the map_id
 * already set (for many fields of one map: the map is hashed once). */
void ff_field_update_distance_id(ff_field *f);

/* Compute direction_id (with a direction) and the id of every extra
 * channel with has_id, from the map_id and distance_id already set.  A
 * program that makes or changes a derived channel calls this (after
 * setting has_id on an extra channel it made) before writing. */
void ff_field_update_derived_ids(ff_field *f);

/* The id of a derived channel NAME of type T with w*h values DATA in f:
 * the hash of f's distance_id (map_id without a distance), NAME, T and
 * the values (man 5 ff, "Ids").  Every channel but cost, oneway, class
 * and distance is derived. */
uint64_t ff_channel_id(const ff_field *f, const char *name, ff_type t, const void *data);

/* The same for a channel of lanes values a cell (1, 2 for TYPEx2, 8 for
 * TYPEx8): its type code counts 8 more for x8, 16 more for x2, and
 * w*h*lanes values are hashed. */
uint64_t ff_channel_id_lanes(const ff_field *f, const char *name, ff_type t, int lanes,
                             const void *data);

#ifdef __cplusplus
}
#endif

#endif
