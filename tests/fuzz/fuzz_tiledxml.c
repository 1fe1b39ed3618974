/* fuzz_tiledxml.c - libFuzzer target: the Tiled XML (.tmx) map reader with the
 * convention (lib/format/tiledxml.c, tiled.c, tiledata.c), through
 * ff_map_parse and ff_map_read; a map that parses must keep what a grid
 * promises and cross an ff stream (binary and text) unchanged.  The seed
 * corpus (tests/fuzz/corpus/tiledxml/) steers it to its format; format
 * detection is fuzzed on the way.  Without the map's path, external
 * tilesets are refused, never read from disk. */
#define _POSIX_C_SOURCE 200809L
#include "fuzzmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_map_bytes(data, size, 0);
    return 0;
}
