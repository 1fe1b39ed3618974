/* tiledata.h - the data of a Tiled tile layer as text: CSV, or base64 of
 * little-endian u32 gids, uncompressed or compressed with zlib, gzip or
 * zstd (man 5 fftiled). */
#ifndef FF_TILEDATA_H
#define FF_TILEDATA_H

#include <stddef.h>

#include "tiled.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Decode the data of a counting layer (after ff_tiled_layer) into t's
 * cells: encoding "csv" or "base64", compression "" (none), "zlib",
 * "gzip" or "zstd".  Exactly w*h gids.  line is the data's first line
 * (0: unknown), for messages. */
ff_status ff_tiled_data(ff_tiled *t, const char *encoding, const char *compression,
                        const char *text, size_t len, long line);

#ifdef __cplusplus
}
#endif

#endif
