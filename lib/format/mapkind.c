/* mapkind.c - a map told from its first bytes; see mapkind.h. */
#include "mapkind.h"

#include <string.h>

#include "tiledmap.h"

int ff_map_starts_with_word(const unsigned char *data, size_t size, const char *word)
{
    size_t n = strlen(word);

    return size >= n && memcmp(data, word, n) == 0 &&
           (size == n || data[n] == ' ' || data[n] == '\t' || data[n] == '\n' || data[n] == '\r');
}

const char *ff_map_kind(const unsigned char *data, size_t size)
{
    static const unsigned char png_magic[4] = { 0x89, 'P', 'N', 'G' };

    if (size >= 4 && memcmp(data, png_magic, 4) == 0)
        return "a PNG map";
    if (ff_map_starts_with_word(data, size, "type"))
        return "a Moving AI map";
    if (ff_map_starts_with_word(data, size, "ffmap"))
        return "an ffmap";
    if (!ff_map_starts_with_word(data, size, "ff") && ff_map_is_tiled(data, size))
        return "a Tiled map";
    return NULL;
}
